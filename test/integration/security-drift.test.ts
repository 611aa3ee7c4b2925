// What a drift check (`plan --detailed-exitcode --include-unmanaged`) must see when a lower role
// hides things from it: objects it plants, of kinds the tool manages or only names, and `ignore:`
// globs it counts on to reach beyond their schema. The check exits 2 and names each of them.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { firstError, freshDatabase, plainServers, sql, type TestDb } from '../support/db.js';
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
    const manifest = `version: 1\ntables:\n${ACCOUNTS}ignore: ["routine public.x_tmp_*", "policy public.accounts.*", "* app.*", "schema app", "privileges schema *", "owner of relation public.*"]\n`;
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
  let owner = '';
  beforeAll(async () => {
    db = await freshDatabase(plainServers(), 'sdi');
    const role = await hostileRole(plainServers(), db);
    owner = role.role;
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
    // The role owns the tables it made: what the manifest says too (else each owner is listed unmanaged).
    const again = await drift(db, {
      ...files,
      'citus-migrate.yaml': files['citus-migrate.yaml'].replace(
        '[sql/indexes.sql]',
        '[sql/indexes.sql, sql/owners.sql]',
      ),
      'sql/owners.sql': ['t', 'u', 'p', 'p1'].map((t) => `ALTER TABLE public.${t} OWNER TO ${owner};\n`).join(''),
    });
    expect(again.code, again.out).toBe(0);
  });
});

describe('objects of kinds the tool does not manage are named (a drift check exits 2), extension members a role added too', () => {
  let db: TestDb;
  let dir: string;
  let role: Hostile;
  beforeAll(async () => {
    db = await freshDatabase(plainServers(), 'sdk');
    // The role owns the database: it may create in public and install trusted extensions.
    role = await hostileRole(plainServers(), db, { owner: true });
    await db.query(`CREATE FOREIGN DATA WRAPPER w; CREATE SERVER srv FOREIGN DATA WRAPPER w;
      GRANT USAGE ON FOREIGN SERVER srv TO ${role.role}`);
    await role.run([
      "CREATE TYPE mood AS ENUM ('a', 'b')",
      'CREATE CAST (text AS mood) WITH INOUT',
      'CREATE TEXT SEARCH CONFIGURATION cfg (COPY = english)',
      'CREATE TEXT SEARCH DICTIONARY dict (TEMPLATE = simple)',
      "CREATE CONVERSION conv FOR 'UTF8' TO 'LATIN1' FROM utf8_to_iso8859_1",
      'CREATE TYPE pair AS (x integer, y integer)',
      'CREATE TABLE typed OF pair',
      'CREATE TABLE opts (a text COMPRESSION lz4, b integer)',
      'ALTER TABLE opts ALTER COLUMN b SET (n_distinct = 5)',
      'CREATE UNLOGGED SEQUENCE quiet',
      // Its options hold a password: adopted with a placeholder for it, never the value.
      "CREATE USER MAPPING FOR CURRENT_USER SERVER srv OPTIONS (password 'hunter2')",
      // A trusted extension's owner may add its own objects to it, where every query skips them.
      'CREATE EXTENSION pgcrypto',
      `CREATE FUNCTION public.hidden() RETURNS integer LANGUAGE sql SECURITY DEFINER AS 'SELECT 1'`,
      'ALTER EXTENSION pgcrypto ADD FUNCTION public.hidden()',
    ]);
    // What only a superuser creates.
    await db.query(`CREATE TYPE shelly;
      CREATE TEXT SEARCH TEMPLATE tmpl (LEXIZE = dsimple_lexize, INIT = dsimple_init);
      CREATE TEXT SEARCH PARSER prs (START = prsd_start, GETTOKEN = prsd_nexttoken, END = prsd_end, LEXTYPES = prsd_lextype);
      CREATE OPERATOR FAMILY fam USING btree;
      CREATE OPERATOR CLASS mood_ops FOR TYPE mood USING hash AS OPERATOR 1 = (anyenum, anyenum), FUNCTION 1 hashenum(anyenum);
      CREATE ACCESS METHOD am2 TYPE TABLE HANDLER heap_tableam_handler;
      CREATE TRANSFORM FOR mood LANGUAGE plpgsql (FROM SQL WITH FUNCTION pg_catalog.gtsvector_compress(internal));
      CREATE FUNCTION b4_in(cstring) RETURNS b4 LANGUAGE internal IMMUTABLE STRICT AS 'int4in';
      CREATE FUNCTION b4_out(b4) RETURNS cstring LANGUAGE internal IMMUTABLE STRICT AS 'int4out';
      CREATE TYPE b4 (INPUT = b4_in, OUTPUT = b4_out, LIKE = int4)`);
    dir = mkdtempSync(join(tmpdir(), 'cm-sdk-'));
    const intro = await cli(['introspect', '--database', db.url, '--out', join(dir, 'citus-migrate.yaml')]);
    expect(intro.code, intro.stderr).toBe(0);
  });

  it('each is named, and the drift check of the introspected manifest exits 2', async () => {
    const plan = await cli(['plan', '--database', db.url, '--format', 'json'], { cwd: dir });
    const doc = JSON.parse(plan.stdout) as { unmanaged: string[]; notManaged: { kind: string; name: string }[] };
    expect(doc.unmanaged).toEqual([]);
    const u = role.role;
    expect(doc.notManaged.map((x) => `${x.kind}: ${x.name}`)).toEqual(
      expect.arrayContaining([`extension member: function hidden() (extension pgcrypto, owned by ${u})`]),
    );
    // Casts, text search configurations and dictionaries, a column's COMPRESSION and n_distinct, an
    // unlogged sequence, operator classes and families, access methods, transforms, text search parsers and templates, base and shell types are managed: adopted, not named.
    expect(
      doc.notManaged.filter((x) =>
        [
          'cast',
          'text search configuration',
          'text search dictionary',
          'column option',
          'sequence persistence',
          'operator class',
          'operator family',
          'user mapping',
          'conversion',
          'typed table',
          'access method',
          'transform',
          'text search parser',
          'text search template',
          'shell type',
          'base type',
        ].includes(x.kind),
      ),
    ).toEqual([]);
    // pgcrypto's own functions are its script's (a superuser's): not named.
    expect(doc.notManaged.filter((x) => x.kind === 'extension member')).toHaveLength(1);
    const drift = await cli(['plan', '--database', db.url, '--detailed-exitcode', '--include-unmanaged'], { cwd: dir });
    expect(drift.code, drift.stdout).toBe(2);
    expect(drift.stdout + drift.stderr).not.toContain('hunter2');
    const mappings = readFileSync(join(dir, 'sql', 'user-mappings.sql'), 'utf8');
    expect(mappings).toContain(
      `CREATE USER MAPPING FOR ${u} SERVER srv OPTIONS (password '\${env:CM_SRV_${u.toUpperCase()}_PASSWORD}')`,
    );
    expect(mappings).not.toContain('hunter2');
  });

  it("a table and an index in another tablespace are managed, a partitioned table's key index in one named", async () => {
    // An in-place tablespace (PostgreSQL 15's developer option): no directory of the server's to make.
    const ts = `cm_ts_${db.name}`;
    await sql(plainServers(), db.name, ['SET allow_in_place_tablespaces = on', `CREATE TABLESPACE ${ts} LOCATION ''`]);
    try {
      await db.query(
        `CREATE TABLE spaced (a integer) TABLESPACE ${ts}; CREATE INDEX spaced_a ON spaced (a) TABLESPACE ${ts};
         CREATE TABLE spaced_p (a integer PRIMARY KEY USING INDEX TABLESPACE ${ts}) PARTITION BY RANGE (a)`,
      );
      const plan = await cli(['plan', '--database', db.url, '--format', 'json'], { cwd: dir });
      const doc = JSON.parse(plan.stdout) as { unmanaged: string[]; notManaged: { kind: string; name: string }[] };
      expect(doc.notManaged.filter((x) => x.kind === 'tablespace').map((x) => x.name)).toEqual([]);
      // (A table the manifest does not declare is unmanaged with its parts: its index, its tablespace.)
      expect(doc.unmanaged).toEqual(expect.arrayContaining(['table public.spaced', 'table public.spaced_p']));
    } finally {
      await sql(plainServers(), db.name, ['DROP TABLE IF EXISTS spaced, spaced_p', `DROP TABLESPACE ${ts}`]);
    }
  });

  it("an unlogged table's own sequences are unlogged with it: not named", async () => {
    await db.query('CREATE UNLOGGED TABLE scratch (id integer GENERATED ALWAYS AS IDENTITY, n serial)');
    const plan = await cli(['plan', '--database', db.url, '--format', 'json'], { cwd: dir });
    const doc = JSON.parse(plan.stdout) as { notManaged: { kind: string; name: string }[] };
    // (public.quiet, an unlogged sequence no column owns, is managed: `unlogged: true`; one a
    // column owns logged otherwise than its table is a 'sequence persistence' object.)
    expect(doc.notManaged.filter((x) => x.kind === 'sequence persistence').map((x) => x.name)).toEqual([]);
    await db.query('DROP TABLE scratch');
  });
});
