// Casts on Citus. Citus does not propagate CREATE CAST (pinned below): a routine delegated to a
// worker that uses a cast the worker lacks fails there ("cannot cast type app.money2 to numeric").
// The plan makes each cast on every worker too, and drops it there when it is pruned.
import { describe, expect, it } from 'vitest';
import { citusServers, freshDatabase, sql } from '../support/db.js';
import { projectDir } from '../support/project.js';
import { cli } from '../support/run-cli.js';

const citus = citusServers();

const TYPES = 'CREATE TYPE money2 AS (v numeric);\n';
// The cast's function is a routine the manifest creates on every node: the workers need it.
const NUM = 'CREATE FUNCTION money2_num(app.money2) RETURNS numeric LANGUAGE sql IMMUTABLE AS $$ SELECT ($1).v $$;\n';
const CAST = 'CREATE CAST (money2 AS numeric) WITH FUNCTION money2_num(app.money2) AS IMPLICIT;\n';
const manifest = `version: 1
defaults: { schema: app }
tables:
  t:
    distributed_by: k
    shard_count: 4
    columns: { k: integer, m: app.money2 }
routines:
  val:
    file: val.sql
    distributed_by: p
    colocate_with: t
  money2_num: { file: num.sql }
sql: [types.sql, casts.sql]
`;
const VAL = `CREATE FUNCTION val(p integer) RETURNS numeric LANGUAGE plpgsql AS $$
DECLARE r numeric;
BEGIN
  SELECT m::numeric INTO r FROM app.t WHERE k = p;
  RETURN r;
END $$;
`;
const castsOnWorkers = (db: string): Promise<Record<string, unknown>[][]> =>
  Promise.all(
    citus!.nodes
      .slice(1)
      .map((_, i) =>
        sql(
          citus!,
          db,
          [
            "SELECT count(*)::int AS casts FROM pg_cast WHERE castsource = 'app.money2'::regtype AND casttarget = 'numeric'::regtype",
          ],
          i + 1,
        ),
      ),
  );

describe.skipIf(!citus)('casts on Citus', () => {
  it('Citus does not propagate CREATE CAST: a delegated routine using one fails on the worker without it', async () => {
    const db = await freshDatabase(citus!, 'cast_fact');
    const r = await sql(citus!, db.name, [
      'CREATE SCHEMA app',
      'SET search_path TO app',
      TYPES,
      NUM,
      CAST,
      'CREATE TABLE t (k integer, m money2)',
      "SELECT create_distributed_table('app.t', 'k', shard_count := 4)",
      VAL,
      "SELECT create_distributed_function('app.val(integer)', 'p', colocate_with := 'app.t')",
      'INSERT INTO t VALUES (1, row(5)::money2)',
      "SELECT count(*)::int AS n FROM pg_cast WHERE castsource = 'app.money2'::regtype",
    ]);
    expect(r).toEqual([{ n: 1 }]);
    expect(await castsOnWorkers(db.name)).toEqual([[{ casts: 0 }], [{ casts: 0 }]]);
    await expect(sql(citus!, db.name, ['SELECT app.val(1)'])).rejects.toThrow(/cannot cast type app.money2 to numeric/);
  });

  it("run_command_on_workers reports a command of several statements by its first one's result: a later failure reads as success (a block fails as a whole)", async () => {
    const db = await freshDatabase(citus!, 'rcow_fact');
    const rows = await sql(citus!, db.name, [
      "SELECT bool_and(success) AS ok, min(result) AS result FROM run_command_on_workers('SET LOCAL search_path TO public; SELECT 1/0')",
      'SELECT bool_or(success) AS ok, min(result) AS result FROM run_command_on_workers($c$DO $d$ BEGIN SET LOCAL search_path TO public; PERFORM 1/0; END $d$$c$)',
    ]);
    expect(rows).toEqual([{ ok: false, result: 'ERROR:  division by zero' }]);
    expect(
      await sql(citus!, db.name, [
        "SELECT bool_and(success) AS ok, min(result) AS result FROM run_command_on_workers('SET LOCAL search_path TO public; SELECT 1/0')",
      ]),
    ).toEqual([{ ok: true, result: 'SET' }]);
  });

  it('apply makes a cast on every worker, a delegated routine uses it, and prune drops it there', async () => {
    const db = await freshDatabase(citus!, 'cast_workers');
    const dir = projectDir({
      'citus-migrate.yaml': manifest,
      'types.sql': TYPES,
      'casts.sql': CAST,
      'val.sql': VAL,
      'num.sql': NUM,
    });
    const r = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout + r.stderr).toContain('(after COMMIT) make cast (app.money2 AS numeric) on every worker too');
    expect(await castsOnWorkers(db.name)).toEqual([[{ casts: 1 }], [{ casts: 1 }]]);
    await sql(citus!, db.name, ['INSERT INTO app.t VALUES (1, row(5)::app.money2), (2, row(7)::app.money2)']);
    expect(await sql(citus!, db.name, ['SELECT app.val(1) AS a, app.val(2) AS b'])).toEqual([{ a: '5', b: '7' }]);
    expect((await cli(['plan', '--database', db.url, '--detailed-exitcode'], { cwd: dir })).code).toBe(0);
    // A worker that lost it (one added later, or dropped there by hand): the plan makes it there again.
    await sql(citus!, db.name, ['DROP CAST (app.money2 AS numeric)'], 1);
    const again = await cli(['plan', '--database', db.url, '--detailed-exitcode'], { cwd: dir });
    expect(again.code, again.stdout + again.stderr).toBe(2);
    expect(again.stdout).toContain('make cast (app.money2 AS numeric) on the workers that lack it: ');
    expect((await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: dir })).code).toBe(0);
    expect(await castsOnWorkers(db.name)).toEqual([[{ casts: 1 }], [{ casts: 1 }]]);
    // Without the cast (and the routine that needs it), prune drops it on the workers too.
    const without = projectDir({
      'citus-migrate.yaml': `${manifest.replace(/routines:[\s\S]*?sql:/, 'sql:').replace(', casts.sql', '')}prune: true\n`,
      'types.sql': TYPES,
    });
    const p = await cli(['apply', '--database', db.url, '--auto-approve', '--allow-hazards', 'drops_data'], {
      cwd: without,
    });
    expect(p.code, p.stdout + p.stderr).toBe(0);
    expect(
      await sql(citus!, db.name, ["SELECT count(*)::int AS n FROM pg_cast WHERE castsource = 'app.money2'::regtype"]),
    ).toEqual([{ n: 0 }]);
    expect(await castsOnWorkers(db.name)).toEqual([[{ casts: 0 }], [{ casts: 0 }]]);
  });

  it('a cast whose function the manifest keeps on the coordinator is a plan problem: the workers need the function', async () => {
    const db = await freshDatabase(citus!, 'cast_local_fn');
    const dir = projectDir({
      'citus-migrate.yaml': `version: 1
defaults: { schema: app }
tables:
  t: { distributed_by: k, columns: { k: integer, m: app.money2 } }
sql: [types.sql, casts.sql]
`,
      'types.sql': TYPES + NUM,
      'casts.sql': CAST,
    });
    const r = await cli(['plan', '--database', db.url], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toContain(
      'casts.sql:1:1: cast (app.money2 AS numeric): Citus does not propagate casts',
    );
    expect(r.stdout + r.stderr).toContain('its function app.money2_num must be');
  });
});
