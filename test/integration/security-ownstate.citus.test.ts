// The tool's own state on Citus: it lives on the coordinator alone (no citus_migrate on a
// worker), a pg_write_all_data role that forges object_state there cannot make a plan hide a fix
// to a view over a distributed table, and a role that may only connect cannot hold applies off.
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { citusServers, freshDatabase, sql, type TestDb } from '../support/db.js';
import { hostileRole, type Hostile } from '../support/hostile.js';
import { projectDir } from '../support/project.js';
import { cli } from '../support/run-cli.js';

const citus = citusServers();

const viewProject = (view: string, column = ''): string =>
  projectDir(
    {
      'citus-migrate.yaml': `version: 1\ntables:\n  t: { distributed_by: id, columns: { id: { type: bigint, not_null: true }, hidden: boolean${column} }, primary_key: [id] }\nsql: [views.sql]\n`,
      'views.sql': `${view}\n`,
    },
    'cm-ownstate-citus-',
  );

const urlAs = (db: TestDb, role: string): string => {
  const u = new URL(db.url);
  u.username = role;
  u.password = '';
  return u.toString();
};

const planJson = async (db: TestDb, cwd: string) => {
  const r = await cli(['plan', '--database', db.url, '--format', 'json'], { cwd });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as {
    transaction: { steps: { summary: string }[] };
    warnings: { code: string }[];
    recordObjects: Record<string, string>;
  };
};

describe.skipIf(!citus)("the tool's own state on Citus", () => {
  let db: TestDb;
  let low: Hostile;
  beforeEach(async () => {
    db = await freshDatabase(citus!, 'ownstate');
    low = await hostileRole(citus!, db);
  });
  afterEach(async () => {
    await sql(citus!, 'postgres', `REVOKE pg_write_all_data FROM ${low.role}`);
  });

  it('a pg_write_all_data role forges object_state on the coordinator: plan plans the fix, apply refuses; citus_migrate is on no worker', async () => {
    const old = viewProject('CREATE VIEW v AS SELECT id FROM t;');
    const r0 = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: old });
    expect(r0.code, r0.stderr).toBe(0);
    for (const n of [1, 2])
      expect(await db.query("SELECT count(*)::int AS n FROM pg_namespace WHERE nspname = 'citus_migrate'", n)).toEqual([
        { n: 0 },
      ]);
    const fixed = viewProject('CREATE VIEW v AS SELECT id FROM t WHERE NOT hidden;');
    const honest = await planJson(db, fixed);
    expect(honest.transaction.steps.length).toBeGreaterThan(0);
    await sql(citus!, 'postgres', `GRANT pg_write_all_data TO ${low.role}`);
    const forger = new pg.Client({ connectionString: urlAs(db, low.role) });
    await forger.connect();
    await forger.query('UPDATE citus_migrate.object_state SET desired_hash = $1', [
      honest.recordObjects['view public.v'],
    ]);
    await forger.end();

    const plan = await planJson(db, fixed);
    expect(plan.transaction.steps.map((s) => s.summary)).toEqual(honest.transaction.steps.map((s) => s.summary));
    expect(plan.warnings.map((w) => w.code)).toEqual(['object_state_untrusted']);
    const r = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: fixed });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain(`REVOKE pg_write_all_data FROM ${low.role};`);
    expect((await db.query<{ d: string }>("SELECT pg_get_viewdef('public.v'::regclass) AS d"))[0]!.d).not.toContain(
      'hidden',
    );
    expect(await low.breaches()).toEqual([]);
  });

  it('a role that may only connect holds the old advisory key on the coordinator: the apply goes on', async () => {
    expect(
      (
        await cli(['apply', '--database', db.url, '--auto-approve'], {
          cwd: viewProject('CREATE VIEW v AS SELECT id FROM t;'),
        })
      ).code,
    ).toBe(0);
    const squatter = new pg.Client({ connectionString: urlAs(db, low.role) });
    await squatter.connect();
    try {
      await squatter.query(
        "SELECT pg_catalog.pg_advisory_lock(pg_catalog.hashtext('citus-migrate'), pg_catalog.hashtext(pg_catalog.current_database()))",
      );
      const r = await cli(['apply', '--database', db.url, '--auto-approve', '--wait', '2s'], {
        cwd: viewProject('CREATE VIEW v AS SELECT id FROM t;', ', note: text'),
      });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/^Applied 1 step in/);
    } finally {
      await squatter.end();
    }
  });
});
