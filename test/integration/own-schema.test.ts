// The tool's own schema, citus_migrate, against a low-privilege role that plants code in it
// before a superuser applies: the apply refuses (nothing run, the role not made superuser); a
// hostile search_path cannot put another now() in the tool's statements; the happy path works.
import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { catalogSnapshot, freshDatabase, plainServers, sql, type TestDb } from '../support/db.js';
import { cli } from '../support/run-cli.js';
import { ACCOUNTS_MANIFEST, projectDir } from '../support/project.js';

const MANIFEST = ACCOUNTS_MANIFEST;

const project = (manifest = MANIFEST): string => projectDir(manifest, 'cm-own-');

// What the low-privilege role runs as superuser if the tool lets it: it becomes superuser.
const escalate = (role: string): string => `
  CREATE FUNCTION public.cm_escalate() RETURNS trigger LANGUAGE plpgsql AS $f$
  BEGIN EXECUTE 'ALTER ROLE ${role} SUPERUSER'; RETURN NEW; END $f$`;

// The shape of migrations/001_history.sql, so the tool's CREATE TABLE IF NOT EXISTS skips it.
const APPLIES = `CREATE TABLE citus_migrate.applies (
  id bigserial PRIMARY KEY, started_at timestamptz NOT NULL DEFAULT now(), finished_at timestamptz,
  duration_ms integer, outcome text NOT NULL, plan_fingerprint text NOT NULL, manifest_sha256 text NOT NULL,
  manifest_file text NOT NULL, steps jsonb NOT NULL, tool_version text NOT NULL,
  db_user text NOT NULL DEFAULT current_user, client_host text, backend_pid integer NOT NULL DEFAULT pg_backend_pid(),
  error jsonb)`;
const TRIGGER =
  'CREATE TRIGGER cm_t BEFORE INSERT OR UPDATE ON citus_migrate.applies FOR EACH ROW EXECUTE FUNCTION public.cm_escalate()';

describe('citus_migrate belongs to the role that applies', () => {
  let db: TestDb;
  let role: string;
  const isSuper = async (): Promise<boolean> =>
    (await db.query<{ s: boolean }>(`SELECT rolsuper AS s FROM pg_roles WHERE rolname = '${role}'`))[0]!.s;

  beforeEach(async () => {
    db = await freshDatabase(plainServers(), 'own');
    role = `cm_low_${randomBytes(4).toString('hex')}`;
    await db.query(`CREATE ROLE ${role} LOGIN`);
    await db.query(`GRANT CREATE ON DATABASE ${db.name} TO ${role}`);
    await db.query(`GRANT CREATE ON SCHEMA public TO ${role}`);
  });
  afterEach(async () => {
    await sql(plainServers(), 'postgres', [`DROP DATABASE ${db.name} WITH (FORCE)`, `DROP ROLE ${role}`]);
  });

  it('refuses a schema created by another role, with its trigger on applies; nothing runs', async () => {
    await db.query([`SET ROLE ${role}`, escalate(role), 'CREATE SCHEMA citus_migrate', APPLIES, TRIGGER].join(';\n'));
    const before = await catalogSnapshot(db, { history: true });
    const r = await cli(['apply', '--database', db.url, '--auto-approve', '--format', 'json'], { cwd: project() });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain("error: refusing to use the tool's schema citus_migrate");
    expect(r.stderr).toContain(`  schema citus_migrate is owned by role ${role}\n`);
    expect(r.stderr).toContain(`  relation citus_migrate.applies is owned by role ${role}\n`);
    expect(r.stderr).toContain('  trigger cm_t on citus_migrate.applies\n');
    expect(JSON.parse(r.stdout).error.code).toBe('history_schema_untrusted');
    expect(await isSuper()).toBe(false);
    expect(await catalogSnapshot(db, { history: true })).toBe(before);
    expect(await db.query("SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'citus_migrate'")).toEqual([
      { n: 1 },
    ]);
  });

  it("refuses the role's table in a schema it may create in, even when the superuser made the schema", async () => {
    await db.query(`CREATE SCHEMA citus_migrate; GRANT CREATE, USAGE ON SCHEMA citus_migrate TO ${role}`);
    await db.query([`SET ROLE ${role}`, escalate(role), APPLIES, TRIGGER].join(';\n'));
    const r = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: project() });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain(`  role ${role} may create objects in schema citus_migrate\n`);
    expect(r.stderr).toContain(`  relation citus_migrate.applies is owned by role ${role}\n`);
    expect(await isSuper()).toBe(false);
    expect(await db.query("SELECT count(*)::int AS n FROM pg_tables WHERE tablename = 'accounts'")).toEqual([{ n: 0 }]);
  });

  it('pins search_path: a now() in a schema listed before pg_catalog is never called', async () => {
    await db.query(
      [
        `SET ROLE ${role}`,
        `CREATE FUNCTION public.now() RETURNS timestamptz LANGUAGE plpgsql AS $f$
        BEGIN EXECUTE 'ALTER ROLE ${role} SUPERUSER'; RETURN pg_catalog.now(); END $f$`,
        'RESET ROLE',
        `ALTER DATABASE ${db.name} SET search_path = public, pg_catalog`,
      ].join(';\n'),
    );
    const cwd = project();
    const r = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd });
    expect(r.code, r.stderr).toBe(0);
    expect((await cli(['apply', '--database', db.url, '--auto-approve'], { cwd })).code).toBe(0);
    const h = await cli(['history', '--database', db.url, '--format', 'json']);
    expect(JSON.parse(h.stdout).map((x: { outcome: string }) => x.outcome)).toEqual(['nothing_to_do', 'applied']);
    expect(await isSuper()).toBe(false);
  });

  it('refuses a trigger on its own table by a role granted TRIGGER on it', async () => {
    const cwd = project();
    expect((await cli(['apply', '--database', db.url, '--auto-approve'], { cwd })).code).toBe(0);
    await db.query(`GRANT USAGE ON SCHEMA citus_migrate TO ${role}; GRANT TRIGGER ON citus_migrate.applies TO ${role}`);
    await db.query([`SET ROLE ${role}`, escalate(role), TRIGGER].join(';\n'));
    const r = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain(`  trigger cm_t on citus_migrate.applies\n`);
    expect(r.stderr).toContain(`  role ${role} holds TRIGGER on citus_migrate.applies (granted on the table)\n`);
    expect(r.stderr).toContain(`  REVOKE TRIGGER ON TABLE citus_migrate.applies FROM ${role};\n`);
    expect(await isSuper()).toBe(false);
    expect(await db.query('SELECT count(*)::int AS n FROM citus_migrate.applies')).toEqual([{ n: 1 }]);
  });
});
