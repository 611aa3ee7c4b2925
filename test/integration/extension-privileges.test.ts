// Privileges on what an extension made and on pg_catalog's objects, granted by hand on a live
// database: the plan lists them as unmanaged (a drift check exits 2), prune takes them back to
// what the extension's script and initdb left (pg_init_privs), and the dump is then a fresh
// database's with the same extension.
import { afterAll, describe, expect, it } from 'vitest';
import { freshDatabase, plainServers, sql, type TestDb } from '../support/db.js';
import { schemaDump } from '../support/dump.js';
import { projectDir } from '../support/project.js';
import { cli } from '../support/run-cli.js';

const ROLE = 'DO $$BEGIN CREATE ROLE cm_monitor; EXCEPTION WHEN duplicate_object THEN NULL; END$$';
const BY_HAND = [
  ROLE,
  'CREATE EXTENSION pg_stat_statements',
  'GRANT EXECUTE ON FUNCTION pg_stat_statements_reset(oid, oid, bigint) TO cm_monitor',
  'REVOKE SELECT ON pg_stat_statements FROM PUBLIC',
  'GRANT EXECUTE ON FUNCTION pg_catalog.pg_ls_dir(text) TO cm_monitor',
  'GRANT SELECT (rolname) ON pg_catalog.pg_authid TO cm_monitor',
  'REVOKE EXECUTE ON FUNCTION pg_catalog.pg_sleep(double precision) FROM PUBLIC',
  'REVOKE USAGE ON LANGUAGE sql FROM PUBLIC',
];
const UNMANAGED = [
  'privileges function pg_catalog.pg_ls_dir(text) to cm_monitor',
  'privileges function pg_catalog.pg_sleep(double precision) revoked from PUBLIC',
  'privileges function public.pg_stat_statements_reset(oid, oid, bigint) to cm_monitor',
  'privileges language sql revoked from PUBLIC',
  'privileges table pg_catalog.pg_authid to cm_monitor',
  'privileges table public.pg_stat_statements revoked from PUBLIC',
];

describe('privileges on what extensions and initdb made, granted by hand', () => {
  const made: TestDb[] = [];
  afterAll(async () => {
    for (const db of made)
      await sql(plainServers(), 'postgres', `DROP DATABASE IF EXISTS "${db.name}" WITH (FORCE)`).catch(() => undefined);
  });

  it('are unmanaged until declared, and prune takes them back to what the script and initdb left', async () => {
    const db = await freshDatabase(plainServers(), 'extp');
    const clean = await freshDatabase(plainServers(), 'extc');
    made.push(db, clean);
    await sql(plainServers(), db.name, BY_HAND);
    await sql(plainServers(), clean.name, [ROLE, 'CREATE EXTENSION pg_stat_statements']);
    const yaml = (prune: boolean): Record<string, string> => ({
      'citus-migrate.yaml': `version: 1\nprune: ${prune}\nsql: [extensions.sql]\n`,
      // (Its comment declared too: prune would drop it.)
      'extensions.sql': `CREATE EXTENSION pg_stat_statements;
COMMENT ON EXTENSION pg_stat_statements IS 'track planning and execution statistics of all SQL statements executed';
`,
    });
    const dir = projectDir(yaml(false));
    const plan = JSON.parse((await cli(['plan', '--database', db.url, '--format', 'json'], { cwd: dir })).stdout) as {
      unmanaged: string[];
      notManaged: { kind: string }[];
    };
    expect(plan.unmanaged.filter((u) => u.startsWith('privileges ')).sort()).toEqual(UNMANAGED);
    expect(plan.notManaged.map((n) => n.kind)).not.toContain('system object privileges');
    const drift = await cli(['plan', '--database', db.url, '--detailed-exitcode', '--include-unmanaged'], { cwd: dir });
    expect(drift.code).toBe(2);

    const pruned = await cli(['apply', '--database', db.url, '--auto-approve', '--allow-hazards', 'all'], {
      cwd: projectDir(yaml(true)),
    });
    expect(pruned.code, pruned.stdout + pruned.stderr).toBe(0);
    expect(pruned.stdout).toContain('verified: planning again is empty');
    expect(schemaDump(db)).toEqual(schemaDump(clean));
    expect(
      await sql(
        plainServers(),
        db.name,
        "SELECT array_agg(x ORDER BY x)::text AS acl FROM pg_language, unnest(lanacl::text[]) x WHERE lanname = 'sql'",
      ),
    ).toEqual([{ acl: '{=U/postgres,postgres=U/postgres}' }]);
  });
});
