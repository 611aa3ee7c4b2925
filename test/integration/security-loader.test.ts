// Inputs the loader got wrong, against a real PostgreSQL: the library's options (an array of
// hazards), names that are Object.prototype's members, integers past 2^53, deep nesting.
import { mkdirSync, mkdtempSync, readdirSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { apply, CmError, plan } from '../../src/index.js';
import { freshDatabase, plainServers, type TestDb } from '../support/db.js';
import { projectDir } from '../support/project.js';
import { cli } from '../support/run-cli.js';

describe('the library takes its options as documented, or says what is wrong', () => {
  let db: TestDb;
  beforeEach(async () => {
    db = await freshDatabase(plainServers(), 'secl');
  });

  it('apply takes allowHazards as an array (and as a Set)', async () => {
    await db.query('CREATE TABLE public.old (id bigint); INSERT INTO public.old VALUES (1)');
    const file = join(
      projectDir('version: 1\nprune: true\ntables:\n  t:\n    columns: { id: bigint }\n'),
      'citus-migrate.yaml',
    );
    const seen: string[] = [];
    const r = await apply(db.url, file, { allowHazards: ['drops_data'] }, { stepStarted: (s) => seen.push(s.kind) });
    expect(r.outcome).toBe('applied');
    expect(seen).toContain('drop_table');
    expect((await plan(db.url, file)).changes).toBe(false);
    await db.query('CREATE TABLE public.old2 (id bigint)');
    const again = await apply(db.url, file, { allowHazards: new Set(['drops_data'] as const) });
    expect(again.outcome).toBe('applied');
  });

  it('apply refuses an unknown hazard with bad_options and the option path, touching nothing', async () => {
    const file = join(projectDir('version: 1\ntables:\n  t:\n    columns: { id: bigint }\n'), 'citus-migrate.yaml');
    const e = await apply(db.url, file, { allowHazards: ['drop_data'] } as never).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(CmError);
    expect((e as CmError).code).toBe('bad_options');
    expect((e as CmError).message).toMatch(/^apply\(\): options\.allowHazards\[0\]: /);
    expect(await db.query("SELECT to_regclass('public.t') IS NULL AS none")).toEqual([{ none: true }]);
  });
});

describe('introspect -o never writes through a link that leaves its folder', () => {
  let db: TestDb;
  beforeEach(async () => {
    db = await freshDatabase(plainServers(), 'secl');
    await db.query('CREATE TABLE public.t (id bigint); CREATE VIEW public.v AS SELECT id FROM public.t');
  });

  it.each([
    ['the manifest is a dangling link', 'out/citus-migrate.yaml', 'planted', 'it is a symbolic link'],
    ['its sql/ folder links outside', 'out/sql', '', 'is a symbolic link that leads outside'],
  ])('%s: refused, exit 1, nothing written', async (_what, linkAt, target, message) => {
    const dir = projectDir({ 'out/.keep': '' }, 'cm-intro-');
    const outside = mkdtempSync(join(tmpdir(), 'cm-outside-'));
    mkdirSync(join(dir, 'out'), { recursive: true });
    symlinkSync(join(outside, target), join(dir, linkAt));
    const r = await cli(['introspect', '--database', db.url, '-o', 'out/citus-migrate.yaml'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(message);
    expect(r.stderr).toContain('nothing was written');
    expect(readdirSync(outside)).toEqual([]);
    expect(readdirSync(join(dir, 'out')).sort()).toEqual(['.keep', linkAt.slice(4)].sort());
  });
});
