// A lower role against the tool's rights, on a real PostgreSQL: what it owns and the plan drops and
// creates again is given back to it (not left to the superuser that applies), and steps that
// widen access or would run its code with the applier's rights are refused (exit 4, nothing run)
// unless their hazard is allowed by name.
import { describe, expect, it } from 'vitest';
import { quoteIdent } from '../../src/sql/quote.js';
import { freshDatabase, plainServers, type TestDb } from '../support/db.js';
import { hostileRole, type Hostile } from '../support/hostile.js';
import { projectDir } from '../support/project.js';
import { cli } from '../support/run-cli.js';

/** A schema `app` the lower role may use and create in, and a table it may read. */
async function setting(): Promise<{ db: TestDb; low: Hostile; r: string }> {
  const db = await freshDatabase(plainServers(), 'sh');
  const low = await hostileRole(plainServers(), db);
  const r = quoteIdent(low.role);
  await db.query(
    `CREATE SCHEMA app; GRANT USAGE, CREATE ON SCHEMA app TO ${r};
     CREATE TABLE app.t (id bigint PRIMARY KEY, x integer); INSERT INTO app.t VALUES (1, 1), (2, 2);
     GRANT SELECT ON app.t TO ${r}`,
  );
  return { db, low, r };
}

const ownerOf = async (db: TestDb, what: string): Promise<string> =>
  (await db.query<{ o: string }>(`SELECT ${what} AS o`))[0]!.o;

describe('objects the plan creates again keep their owner', () => {
  it('a view the lower role owns, dropped and created again around a column type change, is still its own', async () => {
    const { db, low, r } = await setting();
    await low.run('CREATE VIEW app.v AS SELECT id, x FROM app.t');
    await low.run(`CREATE FUNCTION app.f() RETURNS integer LANGUAGE plpgsql AS $$${low.trapBody('1')}$$`);
    const dir = projectDir({
      'citus-migrate.yaml': `version: 1
tables:
  app.t: { local: true, columns: { id: { type: bigint, not_null: true }, x: bigint }, primary_key: [id] }
routines:
  app.f: { file: routines/f.sql, local: true }
sql: [views.sql]
`,
      // Its result type changes: dropped and created again.
      'routines/f.sql': 'CREATE FUNCTION app.f() RETURNS bigint LANGUAGE sql AS $$SELECT 2::bigint$$;\n',
      'views.sql': `CREATE VIEW app.v AS SELECT id, x FROM app.t;\nGRANT SELECT ON app.t TO ${r};\n`,
    });
    const plan = await cli(['plan', '--database', db.url], { cwd: dir });
    expect(plan.stdout).toContain(`create again view app.v (owner ${low.role} kept)`);
    expect(plan.stdout).toContain(`create function app.f() (owner ${low.role} kept)`);
    const apply = await cli(['apply', '--database', db.url, '--auto-approve', '--allow-hazards', 'all'], { cwd: dir });
    expect(apply.stderr).not.toContain('error');
    expect(apply.code).toBe(0);
    expect(await ownerOf(db, "(SELECT relowner::regrole::text FROM pg_class WHERE oid = 'app.v'::regclass)")).toBe(r);
    expect(await ownerOf(db, "(SELECT proowner::regrole::text FROM pg_proc WHERE oid = 'app.f'::regproc)")).toBe(r);
    expect(await low.breaches()).toEqual([]);
  });
});
