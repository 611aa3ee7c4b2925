// Quoting holds whatever the server's settings are: on a database where
// standard_conforming_strings is off (old installations), text written for the standard meaning
// (a backslash is a plain character) must not break out of its literal. Each payload below is one
// literal under `on`, and under `off` ends early and runs `DROP TABLE victim`.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshDatabase, plainServers, type TestDb } from '../support/db.js';
import { cli } from '../support/run-cli.js';

// Under `on`: the literal  a\'); DROP TABLE public.victim; --   (one string).
// Under `off`: the literal a' then  ); DROP TABLE public.victim; --…
const BREAKOUT = String.raw`'a\''); DROP TABLE public.victim; --'`;
const STORED = String.raw`a\'); DROP TABLE public.victim; --`;

function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'cm-scs-'));
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(dir, rel, '..'), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  return dir;
}

async function offDatabase(): Promise<TestDb> {
  const db = await freshDatabase(plainServers(), 'scs');
  await db.query(`ALTER DATABASE ${db.name} SET standard_conforming_strings = off`);
  await db.query('CREATE TABLE public.victim AS SELECT g FROM pg_catalog.generate_series(1, 100) g');
  return db;
}

describe('standard_conforming_strings = off on the server', () => {
  it('apply stores backslashes and quotes exactly as declared, runs nothing else, and re-plans empty', async () => {
    const db = await offDatabase();
    const dir = project({
      'citus-migrate.yaml': `version: 1
tables:
  public.t:
    local: true
    columns:
      id: int
      note: { type: text, default: ${JSON.stringify(BREAKOUT)} }
routines:
  public.f: { file: routines/f.sql, local: true }
sql: [sql]
`,
      // RETURN 'a\''; DROP …  — one literal under on.
      'routines/f.sql':
        String.raw`CREATE FUNCTION public.f() RETURNS text LANGUAGE sql RETURN 'a\''; DROP TABLE public.victim; --';` +
        '\n',
      'sql/objects.sql': [
        `CREATE TYPE public.mood AS ENUM ('ok', ${BREAKOUT.replace(/; --'$/, "; --'")});`,
        String.raw`CREATE VIEW public.v AS SELECT 'a\'' AS x; DROP TABLE public.victim; --' AS x;`,
        '',
      ].join('\n'),
    });
    const apply = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: dir });
    expect(apply.code, apply.stderr).toBe(0);
    expect(apply.stdout).toContain('verified: planning again is empty');
    expect(await db.query('SELECT count(*)::int AS n FROM public.victim')).toEqual([{ n: 100 }]);
    await db.query('INSERT INTO public.t (id) VALUES (1)');
    expect(await db.query('SELECT note FROM public.t')).toEqual([{ note: STORED }]);
    expect(await db.query('SELECT public.f() AS f')).toEqual([{ f: String.raw`a\'; DROP TABLE public.victim; --` }]);
    expect(await db.query('SELECT x FROM public.v')).toEqual([
      { x: String.raw`a\' AS x; DROP TABLE public.victim; --` },
    ]);
    expect(
      await db.query(
        "SELECT pg_catalog.array_agg(enumlabel ORDER BY enumsortorder)::text[] AS l FROM pg_catalog.pg_enum WHERE enumtypid = 'public.mood'::regtype",
      ),
    ).toEqual([{ l: ['ok', STORED] }]);
    const again = await cli(['plan', '--database', db.url, '--format', 'json'], { cwd: dir });
    expect(JSON.parse(again.stdout).transaction.steps).toEqual([]);
  });

  it('a plan file run by psql sets standard_conforming_strings itself', async () => {
    const db = await offDatabase();
    const dir = project({
      'citus-migrate.yaml': 'version: 1\nsql: [sql]\n',
      'sql/objects.sql': `${String.raw`CREATE VIEW public.v AS SELECT 'a\'' AS x; DROP TABLE public.victim; --' AS x;`}\n`,
    });
    const plan = await cli(['plan', '--database', db.url, '--format', 'sql', '-o', join(dir, 'plan.sql')], {
      cwd: dir,
    });
    expect(plan.code, plan.stderr).toBe(0);
    const r = db.psql({ file: join(dir, 'plan.sql') });
    expect(r.status, r.stderr).toBe(0);
    expect(await db.query('SELECT count(*)::int AS n FROM public.victim')).toEqual([{ n: 100 }]);
    expect(await db.query('SELECT x FROM public.v')).toEqual([
      { x: String.raw`a\' AS x; DROP TABLE public.victim; --` },
    ]);
  });
});
