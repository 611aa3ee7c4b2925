// Privileges on what an extension made, on languages and on pg_catalog's objects, on Citus: every
// node's ACLs are what pg_init_privs says until someone grants, Citus propagates GRANT / REVOKE on
// none of them but a foreign data wrapper (pinned here), and the plan warns that the workers keep
// theirs (citus_coordinator_grant); it applies, and the next plan is empty.
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

describe.skipIf(!citus)('privileges on what extensions and initdb made, on Citus', () => {
  it('are as pg_init_privs says on every node; Citus propagates only a foreign data wrapper’s GRANT; the plan warns, applies and is empty after', async () => {
    const db = await freshDatabase(citus!, 'extpriv');
    for (const node of citus!.nodes.keys()) expect(await sql(citus!, db.name, DIFFERING, node)).toEqual([{ n: 0 }]);
    await db.query(
      'DO $$BEGIN CREATE ROLE cm_monitor; EXCEPTION WHEN duplicate_object THEN NULL; END$$; DO $$BEGIN CREATE ROLE cm_loader; EXCEPTION WHEN duplicate_object THEN NULL; END$$',
    );
    for (const node of [1, 2])
      await sql(
        citus!,
        db.name,
        'DO $$BEGIN CREATE ROLE cm_monitor; EXCEPTION WHEN duplicate_object THEN NULL; END$$; DO $$BEGIN CREATE ROLE cm_loader; EXCEPTION WHEN duplicate_object THEN NULL; END$$',
        node,
      );
    const dir = projectDir({
      'citus-migrate.yaml': 'version: 1\nsql: [sql]\n',
      'sql/extensions.sql': 'CREATE EXTENSION pg_stat_statements;\nCREATE EXTENSION file_fdw;\n',
      'sql/grants.sql': `GRANT EXECUTE ON FUNCTION pg_stat_statements_reset(oid, oid, bigint) TO cm_monitor;
REVOKE SELECT ON pg_stat_statements FROM PUBLIC;
GRANT SELECT ON pg_stat_statements TO cm_monitor;
GRANT EXECUTE ON FUNCTION pg_catalog.pg_ls_dir(text) TO cm_monitor;
GRANT USAGE ON LANGUAGE plpgsql TO cm_loader WITH GRANT OPTION;
GRANT USAGE ON FOREIGN DATA WRAPPER file_fdw TO cm_loader;
`,
    });
    const plan = await cli(['plan', '--database', db.url, '--format', 'json'], { cwd: dir });
    const doc = JSON.parse(plan.stdout) as { warnings: { code: string; message: string }[]; problems: unknown[] };
    expect(doc.problems).toEqual([]);
    const warning = doc.warnings.find((w) => w.code === 'citus_coordinator_grant');
    expect(warning?.message).toMatch(/^4 privileges \(.*\) change on the coordinator only/);
    expect(warning?.message).not.toContain('foreign data wrapper');

    const r = await cli(['apply', '--database', db.url, '--auto-approve', '--allow-hazards', 'all'], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('verified: planning again is empty');
    expect(await aclsOn(db.name, 0)).toEqual({
      reset: '{postgres=X/postgres,cm_monitor=X/postgres}',
      ls_dir: '{postgres=X/postgres,cm_monitor=X/postgres}',
      view: '{postgres=arwdDxt/postgres,cm_monitor=r/postgres}',
      plpgsql: '{=U/postgres,postgres=U/postgres,cm_loader=U*/postgres}',
      fdw: '{postgres=U/postgres,cm_loader=U/postgres}',
    });
    // Citus's doing: the worker keeps the extension's and initdb's, but for the foreign data wrapper.
    expect(await aclsOn(db.name, 1)).toEqual({
      reset: '{postgres=X/postgres}',
      ls_dir: '{postgres=X/postgres}',
      view: '{postgres=arwdDxt/postgres,=r/postgres}',
      plpgsql: null,
      fdw: '{postgres=U/postgres,cm_loader=U/postgres}',
    });
    const again = await cli(['plan', '--database', db.url, '--detailed-exitcode'], { cwd: dir });
    expect(again.code, again.stdout).toBe(0);
    // Read back: introspect writes them as pg_dump does, and its manifest plans empty.
    const out = projectDir({});
    expect((await cli(['introspect', '--database', db.url, '-o', 'citus-migrate.yaml'], { cwd: out })).code).toBe(0);
    expect((await cli(['plan', '--database', db.url, '--detailed-exitcode'], { cwd: out })).code).toBe(0);
  });
});
