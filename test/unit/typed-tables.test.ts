// Typed tables in the manifest (`of_type`): the type qualified with the default schema, a typed
// table that inherits refused, columns that are not the declared type's attributes a plan
// problem, and the offline plan's CREATE TABLE then ALTER TABLE … OF after the type.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadManifest } from '../../src/manifest/load.js';
import { ManifestError } from '../../src/errors.js';
import { planOffline } from '../../src/plan/from-manifest.js';
import { projectDir } from '../support/project.js';

const load = (yaml: string, types = 'CREATE TYPE pair AS (x integer, y text);\n') => {
  const dir = projectDir({ 'citus-migrate.yaml': `version: 1\nsql: [types.sql]\n${yaml}`, 'types.sql': types });
  return loadManifest(join(dir, 'citus-migrate.yaml'));
};

describe('a typed table', () => {
  it('is made with its columns, then typed, after its type', async () => {
    const m = await load('tables:\n  pairs:\n    of_type: pair\n    columns: { x: integer, y: text }\n');
    expect(m.desired.tables['public.pairs']!.ofType).toBe('public.pair');
    const plan = planOffline(m);
    expect(plan.problems).toEqual([]);
    const sql = plan.transaction.steps.flatMap((s) => s.sql).join('\n');
    expect(sql.indexOf('CREATE TYPE pair')).toBeLessThan(sql.indexOf('CREATE TABLE public.pairs'));
    expect(sql).toContain('ALTER TABLE public.pairs OF public.pair');
  });

  it("whose columns are not the type's attributes, in order, is a plan problem", async () => {
    const m = await load('tables:\n  pairs:\n    of_type: pair\n    columns: { y: text, x: integer }\n');
    expect(planOffline(m).problems).toEqual([
      expect.objectContaining({
        code: 'typed_table_columns',
        object: 'table public.pairs',
        message: expect.stringContaining("are not the type's attributes (x integer, y text)") as unknown as string,
      }),
    ]);
  });

  it('that inherits is refused where it is declared', async () => {
    const e = await load(
      'tables:\n  base: { columns: { x: integer } }\n  pairs:\n    of_type: pair\n    inherits: [base]\n    columns: { y: text }\n',
    ).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ManifestError);
    expect((e as ManifestError).problems, JSON.stringify((e as ManifestError).problems)).toEqual([
      expect.objectContaining({ code: 'typed_table_inherits', path: 'tables.pairs.of_type', line: 6 }),
    ]);
  });
});
