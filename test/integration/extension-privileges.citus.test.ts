// Privileges on what an extension made, on languages and on pg_catalog's objects, on Citus: every
// node's ACLs are what pg_init_privs says until someone grants, and Citus propagates GRANT / REVOKE
// on none of them but a foreign data wrapper (pinned here): the plan runs each such step on every
// worker too, after COMMIT; it applies, the workers end as the coordinator, and the next plan is
// empty. A grant changed by hand on a worker is seen (each plan reads the workers' ACLs that differ
// from pg_init_privs) and made the coordinator's there.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { citusServers, freshDatabase, sql } from '../support/db.js';
import { projectDir } from '../support/project.js';
import { cli } from '../support/run-cli.js';

const citus = citusServers();

// What differs from pg_init_privs among pg_catalog's objects and the extensions' members.
const DIFFERING = `SELECT count(*)::int AS n FROM (
  SELECT c.oid FROM pg_class c LEFT JOIN pg_init_privs ip ON ip.classoid = 'pg_class'::regclass AND ip.objoid = c.oid AND ip.objsubid = 0
  WHERE (c.relnamespace = 'pg_catalog'::regnamespace OR EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.deptype = 'e'))
    AND c.relacl::text IS DISTINCT FROM ip.initprivs::text
  UNION ALL
  SELECT p.oid FROM pg_proc p LEFT JOIN pg_init_privs ip ON ip.classoid = 'pg_proc'::regclass AND ip.objoid = p.oid AND ip.objsubid = 0
  WHERE (p.pronamespace = 'pg_catalog'::regnamespace OR EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'))
    AND p.proacl::text IS DISTINCT FROM ip.initprivs::text) x`;

const ACLS = [
  "SELECT (SELECT proacl::text FROM pg_proc WHERE oid = 'public.pg_stat_statements_reset(oid, oid, bigint)'::regprocedure) AS reset",
  "SELECT (SELECT proacl::text FROM pg_proc WHERE oid = 'pg_catalog.pg_ls_dir(text)'::regprocedure) AS ls_dir",
  "SELECT (SELECT relacl::text FROM pg_class WHERE oid = 'public.pg_stat_statements'::regclass) AS view",
  "SELECT (SELECT lanacl::text FROM pg_language WHERE lanname = 'plpgsql') AS plpgsql",
  "SELECT (SELECT fdwacl::text FROM pg_foreign_data_wrapper WHERE fdwname = 'file_fdw') AS fdw",
];
const aclsOn = async (db: string, node: number): Promise<Record<string, unknown>> => {
  const out: Record<string, unknown> = {};
  for (const q of ACLS) Object.assign(out, (await sql(citus!, db, q, node))[0]);
  return out;
};

const ROLES =
  'DO $$BEGIN CREATE ROLE cm_monitor; EXCEPTION WHEN duplicate_object THEN NULL; END$$; DO $$BEGIN CREATE ROLE cm_loader; EXCEPTION WHEN duplicate_object THEN NULL; END$$';
const GRANTS = `GRANT EXECUTE ON FUNCTION pg_stat_statements_reset(oid, oid, bigint) TO cm_monitor;
REVOKE SELECT ON pg_stat_statements FROM PUBLIC;
GRANT SELECT ON pg_stat_statements TO cm_monitor;
GRANT EXECUTE ON FUNCTION pg_catalog.pg_ls_dir(text) TO cm_monitor;
GRANT USAGE ON LANGUAGE plpgsql TO cm_loader WITH GRANT OPTION;
GRANT USAGE ON FOREIGN DATA WRAPPER file_fdw TO cm_loader;
`;
const COORDINATOR = {
  reset: '{postgres=X/postgres,cm_monitor=X/postgres}',
  ls_dir: '{postgres=X/postgres,cm_monitor=X/postgres}',
  view: '{postgres=arwdDxt/postgres,cm_monitor=r/postgres}',
  plpgsql: '{=U/postgres,postgres=U/postgres,cm_loader=U*/postgres}',
  fdw: '{postgres=U/postgres,cm_loader=U/postgres}',
};

describe.skipIf(!citus)('privileges on what extensions and initdb made, on Citus', () => {
  it('are as pg_init_privs says on every node, and Citus propagates only a foreign data wrapper’s GRANT', async () => {
    const db = await freshDatabase(citus!, 'extfact');
    for (const node of citus!.nodes.keys()) {
      expect(await sql(citus!, db.name, DIFFERING, node)).toEqual([{ n: 0 }]);
      await sql(citus!, db.name, ROLES, node);
    }
    await db.query(`CREATE EXTENSION pg_stat_statements; CREATE EXTENSION file_fdw; ${GRANTS}`);
    expect(await aclsOn(db.name, 0)).toEqual(COORDINATOR);
    expect(await aclsOn(db.name, 1)).toEqual({
      reset: '{postgres=X/postgres}',
      ls_dir: '{postgres=X/postgres}',
      view: '{postgres=arwdDxt/postgres,=r/postgres}',
      plpgsql: null,
      fdw: '{postgres=U/postgres,cm_loader=U/postgres}',
    });
  });

  it('are made on every worker too, after COMMIT: the workers end as the coordinator, the next plan empty', async () => {
    const db = await freshDatabase(citus!, 'extpriv');
    for (const node of citus!.nodes.keys()) await sql(citus!, db.name, ROLES, node);
    const dir = projectDir({
      'citus-migrate.yaml': 'version: 1\nsql: [sql]\n',
      'sql/extensions.sql': 'CREATE EXTENSION pg_stat_statements;\nCREATE EXTENSION file_fdw;\n',
      'sql/grants.sql': GRANTS,
    });
    const plan = await cli(['plan', '--database', db.url], { cwd: dir });
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    expect(plan.stdout).toContain(
      'table public.pg_stat_statements as the files grant and revoke it on every worker too, after COMMIT (Citus does not propagate',
    );
    expect(plan.stdout).not.toMatch(/foreign data wrapper file_fdw [^\n]*on every worker/);

    const r = await cli(['apply', '--database', db.url, '--auto-approve', '--allow-hazards', 'all'], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('verified: planning again is empty');
    for (const node of citus!.nodes.keys()) expect(await aclsOn(db.name, node)).toEqual(COORDINATOR);
    const again = await cli(['plan', '--database', db.url, '--detailed-exitcode'], { cwd: dir });
    expect(again.code, again.stdout).toBe(0);

    // Changed by hand on one worker: seen (the drift check exits 2), and made the coordinator's there.
    await sql(
      citus!,
      db.name,
      'REVOKE EXECUTE ON FUNCTION pg_catalog.pg_ls_dir(text) FROM cm_monitor; GRANT SELECT ON pg_stat_statements TO PUBLIC; GRANT EXECUTE ON FUNCTION pg_catalog.pg_sleep(double precision) TO cm_monitor',
      1,
    );
    const drift = await cli(['plan', '--database', db.url, '--detailed-exitcode'], { cwd: dir });
    expect(drift.code, drift.stdout + drift.stderr).toBe(2);
    expect(drift.stdout).toMatch(
      /function pg_catalog\.pg_ls_dir\(text\): as on the coordinator on every worker, after COMMIT \(they differ on 127\.0\.0\.1:\d+;/,
    );
    expect(drift.stdout).toMatch(/table public\.pg_stat_statements: as on the coordinator on every worker/);
    // (one the coordinator holds as initdb left it, and so reads nothing of)
    expect(drift.stdout).toMatch(
      /function pg_catalog\.pg_sleep\(double precision\): as on the coordinator on every worker/,
    );
    const fixed = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: dir });
    expect(fixed.code, fixed.stdout + fixed.stderr).toBe(0);
    expect(fixed.stdout).toContain('verified: planning again is empty');
    for (const node of citus!.nodes.keys()) expect(await aclsOn(db.name, node)).toEqual(COORDINATOR);
    expect(
      await sql(
        citus!,
        db.name,
        "SELECT proacl::text AS acl FROM pg_proc WHERE oid = 'pg_sleep(double precision)'::regprocedure",
        1,
      ),
    ).toEqual([{ acl: '{=X/postgres,postgres=X/postgres}' }]);

    // A change, and prune: in place on the coordinator and on every worker.
    writeFileSync(join(dir, 'sql/grants.sql'), 'GRANT EXECUTE ON FUNCTION pg_catalog.pg_ls_dir(text) TO cm_loader;\n');
    writeFileSync(join(dir, 'citus-migrate.yaml'), 'version: 1\nprune: true\nsql: [sql]\n');
    const changed = await cli(['apply', '--database', db.url, '--auto-approve', '--allow-hazards', 'all'], {
      cwd: dir,
    });
    expect(changed.code, changed.stdout + changed.stderr).toBe(0);
    for (const node of [0, 1, 2])
      expect(await aclsOn(db.name, node)).toEqual({
        reset: '{postgres=X/postgres}',
        ls_dir: '{postgres=X/postgres,cm_loader=X/postgres}',
        view: '{postgres=arwdDxt/postgres,=r/postgres}',
        plpgsql: '{=U/postgres,postgres=U/postgres}',
        fdw: '{postgres=U/postgres}',
      });

    // Read back: introspect writes them as pg_dump does, and its manifest plans empty.
    const out = projectDir({});
    expect((await cli(['introspect', '--database', db.url, '-o', 'citus-migrate.yaml'], { cwd: out })).code).toBe(0);
    expect((await cli(['plan', '--database', db.url, '--detailed-exitcode'], { cwd: out })).code).toBe(0);
  });
});
