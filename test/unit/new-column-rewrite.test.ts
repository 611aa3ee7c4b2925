// ADD COLUMN rewrites its table (every shard on Citus) when the new column's default is volatile,
// or it is generated, identity or serial: a rewrites_table hazard with the reason in the summary.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadParser } from '../../src/sql/pg-parse.js';
import { loadManifestText } from '../../src/manifest/load.js';
import { planLive } from '../../src/plan/from-manifest.js';
import { catalogToModel } from '../../src/introspect/to-model.js';
import { scenarios } from '../support/scenarios.js';

beforeAll(loadParser);

const base = scenarios().find((s) => s.name === '09-column-changes')!;

async function added(column: string, routine?: string): Promise<{ summary: string; hazards: readonly string[] }[]> {
  const live = catalogToModel(base.fixture!);
  const dir = mkdtempSync(join(tmpdir(), 'cm-rewrite-'));
  if (routine !== undefined) writeFileSync(join(dir, 'f.sql'), routine);
  const m = await loadManifestText(
    `version: 1
tables:
  t:
    distributed_by: id
    shard_count: 4
    columns:
      id: { type: int8, not_null: true }
      name: { type: "varchar(40)", not_null: true }
      note: { type: text, default: "'y'" }
      added: { type: "numeric(8,2)", default: "0" }
      x: ${column}
    primary_key: [id]
${routine !== undefined ? 'routines:\n  f: { file: f.sql }\n' : ''}`,
    'citus-migrate.yaml',
    dir,
  );
  return planLive(m, live)
    .transaction.steps.filter((s) => s.kind === 'add_column' && s.summary.includes(' x '))
    .map((s) => ({ summary: s.summary, hazards: s.hazards }));
}

describe('a new column that rewrites its table', () => {
  it.each([
    ['{ type: uuid, not_null: true, default: gen_random_uuid() }', 'gen_random_uuid()'],
    ['{ type: timestamptz, default: clock_timestamp() }', 'clock_timestamp()'],
    ['{ type: bigint, default: "(random() * 10)::bigint" }', 'random()'],
  ])('%s: rewrites_table, the reason and the default in the summary', async (column, call) => {
    const [step] = await added(column);
    expect(step!.hazards).toContain('rewrites_table');
    expect(step!.summary).toContain(
      `(rewrites it: its default calls ${call}, which is volatile: computed for every row)`,
    );
  });

  it('shows NOT NULL DEFAULT in the summary', async () => {
    const [step] = await added('{ type: uuid, not_null: true, default: gen_random_uuid() }');
    expect(step!.summary).toMatch(/^add column x uuid NOT NULL DEFAULT gen_random_uuid\(\) to public\.t \(rewrites it/);
  });

  it.each([
    '{ type: timestamptz, default: now() }',
    '{ type: text, default: "\'a\'" }',
    '{ type: timestamp, default: "timezone(\'utc\', now())" }',
    '{ type: text }',
  ])('%s: no rewrite, no hazard', async (column) => {
    const [step] = await added(column);
    expect(step!.hazards).toEqual([]);
    expect(step!.summary).not.toContain('rewrites');
  });

  it('a routine of the manifest counts by its declared volatility', async () => {
    const file = (volatility: string) =>
      `CREATE FUNCTION f() RETURNS integer LANGUAGE sql ${volatility} AS 'SELECT 1';\n`;
    expect((await added('{ type: integer, default: f() }', file('STABLE')))[0]!.hazards).toEqual([]);
    expect((await added('{ type: integer, default: f() }', file('')))[0]!.hazards).toContain('rewrites_table');
  });
});
