// What a drift check (`plan --detailed-exitcode --include-unmanaged`) must see when a lower role
// hides things from it: objects it plants, of kinds the tool manages or only names, and `ignore:`
// globs it counts on to reach beyond their schema. The check exits 2 and names each of them.
import { beforeAll, describe, expect, it } from 'vitest';
import { firstError, freshDatabase, plainServers, type TestDb } from '../support/db.js';
import { hostileRole, type Hostile } from '../support/hostile.js';
import { projectDir } from '../support/project.js';
import { cli } from '../support/run-cli.js';

const ACCOUNTS = `  public.accounts:
    local: true
    columns: { id: { type: bigint, not_null: true }, name: text }
    primary_key: [id]
`;

/** The drift check's exit code and output for `manifest` (or project files) against `db`. */
async function drift(db: TestDb, files: string | Record<string, string>): Promise<{ code: number; out: string }> {
  const r = await cli(['plan', '--database', db.url, '--detailed-exitcode', '--include-unmanaged'], {
    cwd: projectDir(files),
  });
  return { code: r.code, out: r.stdout + r.stderr };
}

describe('what a lower role plants in public is named', () => {
  let db: TestDb;
  let role: Hostile;
  beforeAll(async () => {
    db = await freshDatabase(plainServers(), 'sd');
    role = await hostileRole(plainServers(), db);
    await db.query('CREATE SCHEMA app');
    await db.query(`GRANT CREATE, USAGE ON SCHEMA app TO ${role.role}`);
    // The role owns a table the manifest declares (a team's table), so it may add policies to it.
    await role.run([
      'CREATE TABLE public.accounts (id bigint PRIMARY KEY, name text)',
      'CREATE POLICY open_all ON public.accounts USING (true) WITH CHECK (true)',
      `CREATE FUNCTION public.x_tmp_y() RETURNS int LANGUAGE sql SECURITY DEFINER AS 'SELECT 1'`,
      'CREATE TABLE app.tmp_scratch (a int)',
    ]);
  });

  it('an open policy and a SECURITY DEFINER function another role created: exit 2, both named', async () => {
    const r = await drift(db, `version: 1\ntables:\n${ACCOUNTS}ignore: ["* app.*"]\n`);
    expect(r.code).toBe(2);
    expect(r.out).toContain('\n  policy public.accounts.open_all\n');
    expect(r.out).toContain('\n  routine public.x_tmp_y()\n');
  });

  it('ignore: globs meant for schema app hide nothing in public', async () => {
    // Unqualified globs name the default schema (app here): they used to match any schema's
    // objects, and "*" ran across the schema's dot into public's names.
    const manifest = `version: 1\ndefaults: { schema: app }\ntables:\n${ACCOUNTS}ignore: ["routine *tmp*", "policy *open*", "* app.tmp_*"]\n`;
    const r = await drift(db, manifest);
    expect(r.out).toContain('\n  policy public.accounts.open_all\n');
    expect(r.out).toContain('\n  routine public.x_tmp_y()\n');
    expect(r.out).not.toContain('tmp_scratch'); // what the glob is meant for stays ignored
    expect(r.code).toBe(2);
  });

  it('a glob that names public hides them (the glob says so)', async () => {
    const manifest = `version: 1\ntables:\n${ACCOUNTS}ignore: ["routine public.x_tmp_*", "policy public.accounts.*", "* app.*", "schema app", "privileges schema *"]\n`;
    const r = await drift(db, manifest);
    expect(r.out).not.toContain('x_tmp_y');
    expect(r.out).not.toContain('open_all');
    expect(r.out).toContain('No changes: the cluster matches the manifest.');
    expect(r.code).toBe(0);
  });
});

describe('an index a failed build left invalid (its UNIQUE not enforced) is rebuilt, not "No changes"', () => {
  let db: TestDb;
  const files = {
    'citus-migrate.yaml': `version: 1
tables:
  t: { local: true, columns: { a: integer, b: integer } }
  u: { local: true, columns: { a: integer }, indexes: [{ columns: [a], unique: true }] }
  p:
    local: true
    partition_by: RANGE (d)
    partitions: { p1: { from: "0", to: "10" } }
    columns: { id: { type: integer, not_null: true }, d: { type: integer, not_null: true } }
    primary_key: [id, d]
sql: [sql/indexes.sql]
`,
    'sql/indexes.sql': 'CREATE UNIQUE INDEX t_a ON public.t USING btree (a);\n',
  };
  const invalid = async (): Promise<string[]> =>
    (
      await db.query<{ i: string }>(
        'SELECT indexrelid::regclass::text AS i FROM pg_index WHERE NOT (indisvalid AND indisready AND indislive) ORDER BY 1',
      )
    ).map((r) => r.i);
  beforeAll(async () => {
    db = await freshDatabase(plainServers(), 'sdi');
    const role = await hostileRole(plainServers(), db);
    await role.run([
      'CREATE TABLE t (a integer, b integer)',
      'CREATE TABLE u (a integer)',
      'CREATE TABLE p (id integer NOT NULL, d integer NOT NULL) PARTITION BY RANGE (d)',
      'CREATE TABLE p1 PARTITION OF p FOR VALUES FROM (0) TO (10)',
      'INSERT INTO t VALUES (1, 1), (1, 2)',
      'INSERT INTO u VALUES (1), (1)',
      // A primary key on the partitioned table alone: invalid while its partitions lack one.
      'ALTER TABLE ONLY p ADD PRIMARY KEY (id, d)',
      'INSERT INTO p VALUES (1, 1), (1, 1)',
    ]);
    // The role's failed builds: CREATE UNIQUE INDEX CONCURRENTLY over duplicates, one named, one not.
    for (const build of ['CREATE UNIQUE INDEX CONCURRENTLY t_a ON t (a)', 'CREATE UNIQUE INDEX CONCURRENTLY ON u (a)'])
      expect(await firstError(db.url, [`SET ROLE ${role.role}`, build])).toMatch(/could not create unique index/);
    expect(await invalid()).toEqual(['p_pkey', 't_a', 'u_a_idx']);
    await db.query(`REVOKE CREATE ON SCHEMA public FROM ${role.role}`); // only what it built differs
  });

  it('the drift check exits 2 and says why each is rebuilt', async () => {
    const r = await drift(db, files);
    expect(r.code, r.out).toBe(2);
    expect(r.out).toContain(
      'drop primary key p_pkey of public.p (its index is invalid, so it is not enforced: added again, which builds it)',
    );
    expect(r.out).toContain(
      'index public.t_a is invalid (a failed build; not used, nor enforced): drop it to create it again',
    );
    // Declared without a name: the invalid u_a_idx goes (a new build would be u_a_idx1 beside it).
    expect(r.out).toContain(
      'index public.u_a_idx of public.u is invalid (a failed build; not used, nor enforced): drop it to build it again',
    );
  });

  it('apply over the duplicates fails and changes nothing; once they are gone it rebuilds them, and the check is clean', async () => {
    const cwd = projectDir(files);
    const failed = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd });
    expect(failed.code).not.toBe(0);
    expect(failed.stdout + failed.stderr).toMatch(/could not create unique index|is duplicated/);
    expect(await invalid()).toEqual(['p_pkey', 't_a', 'u_a_idx']);
    await db.query(
      'DELETE FROM t WHERE b = 2; DELETE FROM u WHERE ctid = (SELECT max(ctid) FROM u); DELETE FROM p1 WHERE ctid = (SELECT max(ctid) FROM p1)',
    );
    const applied = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd });
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expect(await invalid()).toEqual([]);
    const again = await drift(db, files);
    expect(again.code, again.out).toBe(0);
  });
});
