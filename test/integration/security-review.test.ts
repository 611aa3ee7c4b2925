// The first security review's last findings against real servers: a sql: file's statements that
// are not declarations never reach the server (refused before anything runs, each at its line),
// CREATE EXTENSION … CASCADE (refused; declared extensions are exactly what apply creates), what
// the plan and apply's refusal say PUBLIC gets, a saved plan whose manifest is not here, and
// connection strings libpq would read otherwise than written (refused before connecting).
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { quoteIdent } from '../../src/sql/quote.js';
import { catalogSnapshot, citusServers, freshDatabase, plainServers, sql, type TestDb } from '../support/db.js';
import { hostileRole } from '../support/hostile.js';
import { projectDir } from '../support/project.js';
import { cli } from '../support/run-cli.js';

const snapshot = (db: TestDb): Promise<string> => catalogSnapshot(db, { history: true });

describe('a sql: file statement that is not a declaration never reaches the server', () => {
  let db: TestDb;
  beforeEach(async () => {
    db = await freshDatabase(plainServers(), 'secrev');
  });

  it('apply refuses the file before running anything, naming each line; the role, settings and server are untouched', async () => {
    const info = plainServers();
    const hostile = await hostileRole(info, db);
    const h = quoteIdent(hostile.role);
    const made = `cm_made_${randomBytes(4).toString('hex')}`;
    const marker = join(tmpdir(), `cm-review-${randomBytes(4).toString('hex')}`);
    await hostile.run(`CREATE FUNCTION public.trap() RETURNS int LANGUAGE plpgsql AS $$${hostile.trapBody('1')}$$`);
    await hostile.run(`CREATE PROCEDURE public.trap_proc() LANGUAGE plpgsql AS $$ BEGIN PERFORM public.trap(); END $$`);
    const lines = [
      'CREATE VIEW v AS SELECT 1 AS one;',
      `SET ROLE ${h};`,
      `SET SESSION AUTHORIZATION ${h};`,
      'RESET ROLE;',
      'RESET ALL;',
      `SET search_path = public, ${h};`,
      `SELECT set_config('role', '${hostile.role}', false);`,
      'SELECT public.trap();',
      'DO $$ BEGIN PERFORM public.trap(); END $$;',
      'PREPARE p AS SELECT public.trap();',
      'EXECUTE p;',
      'CALL public.trap_proc();',
      "LOAD 'auto_explain';",
      `COPY (SELECT 1) TO PROGRAM 'touch ${marker}';`,
      "ALTER SYSTEM SET work_mem = '77kB';",
      `ALTER ROLE ${h} SUPERUSER;`,
      `CREATE ROLE ${made} SUPERUSER;`,
      'SET default_tablespace = pg_global;',
      'CREATE EXTENSION earthdistance CASCADE;',
      'GRANT USAGE ON SCHEMA public TO PUBLIC WITH GRANT OPTION;',
    ];
    const dir = projectDir({
      'citus-migrate.yaml': 'version: 1\nsql: [objects.sql]\n',
      'objects.sql': lines.join('\n'),
    });
    const before = await snapshot(db);
    const r = await cli(['apply', '--database', db.url, '--auto-approve', '--allow-hazards', 'all'], { cwd: dir });
    expect(r.code).toBe(3);
    const located = [...r.stderr.matchAll(/objects\.sql:(\d+):1: /g)].map((m) => Number(m[1]));
    expect(located).toEqual(lines.map((_, i) => i + 1).slice(1));
    expect(r.stderr).toContain('objects.sql:2:1: SET ROLE is refused: it changes whose privileges');
    expect(r.stderr).toContain(`manifest is invalid: ${lines.length - 1} problems`);
    expect(r.stdout).toBe('');
    // Nothing ran: no view, no extension, no role, no trap, no file, no setting, no history.
    expect(await snapshot(db)).toBe(before);
    expect(await hostile.breaches()).toEqual([]);
    expect(await db.query(`SELECT count(*)::int AS n FROM pg_roles WHERE rolname = '${made}'`)).toEqual([{ n: 0 }]);
    expect(
      await db.query("SELECT count(*)::int AS n FROM pg_extension WHERE extname IN ('cube', 'earthdistance')"),
    ).toEqual([{ n: 0 }]);
    expect(
      await db.query("SELECT count(*)::int AS n FROM pg_file_settings WHERE name = 'work_mem' AND setting = '77kB'"),
    ).toEqual([{ n: 0 }]);
    expect(existsSync(marker)).toBe(false);
  });

  it.each([
    ['SET search_path = app, public;', 'objects.sql:1:1: SET search_path names 2 schemas'],
    [
      'SET default_table_access_method = columnar;',
      'objects.sql:1:1: SET default_table_access_method TO "columnar" is refused',
    ],
    ["SET client_encoding = 'LATIN1';", 'objects.sql:1:1: SET client_encoding TO "LATIN1" is refused'],
  ])('a line the plan would not honour (%s) is refused, not skipped', async (line, message) => {
    const dir = projectDir({
      'citus-migrate.yaml': 'version: 1\nschemas: { app: {} }\nsql: [objects.sql]\n',
      'objects.sql': `${line}\nCREATE VIEW v AS SELECT 1 AS one;\n`,
    });
    const before = await snapshot(db);
    const r = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: dir });
    expect(r.stderr).toContain(message);
    expect(r.code).toBe(3);
    expect(await snapshot(db)).toBe(before);
  });
});

describe('CREATE EXTENSION: the plan lists every extension apply creates', () => {
  let db: TestDb;
  beforeEach(async () => {
    db = await freshDatabase(plainServers(), 'secrev');
  });
  const extensions = async (d: TestDb, node = 0): Promise<string[]> =>
    (await d.query<{ e: string }>('SELECT extname AS e FROM pg_extension ORDER BY extname', node)).map((r) => r.e);

  it('CASCADE is refused; declared one by one, apply creates exactly those, and planning again is empty', async () => {
    const cascade = projectDir({
      'citus-migrate.yaml': 'version: 1\nsql: [ext.sql]\n',
      'ext.sql': 'CREATE EXTENSION earthdistance CASCADE;\n',
    });
    const before = await extensions(db);
    const refused = await cli(['plan', '--database', db.url], { cwd: cascade });
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain(
      'ext.sql:1:1: CREATE EXTENSION … CASCADE is refused: it would also create the extensions earthdistance requires, which the plan would not list',
    );
    const applied = await cli(['apply', '--database', db.url, '--auto-approve', '--allow-hazards', 'all'], {
      cwd: cascade,
    });
    expect(applied.code).toBe(3);
    expect(await extensions(db)).toEqual(before);

    const declared = projectDir({
      'citus-migrate.yaml': 'version: 1\nsql: [ext.sql]\n',
      'ext.sql': 'CREATE EXTENSION cube;\nCREATE EXTENSION earthdistance;\n',
    });
    const plan = await cli(['plan', '--database', db.url], { cwd: declared });
    expect(plan.stdout).toContain('1. create extension cube  [creates_extension]\n');
    expect(plan.stdout).toContain('2. create extension earthdistance  [creates_extension]\n');
    const ok = await cli(['apply', '--database', db.url, '--auto-approve', '--allow-hazards', 'creates_extension'], {
      cwd: declared,
    });
    expect(ok.code).toBe(0);
    expect(await extensions(db)).toEqual([...before, 'cube', 'earthdistance'].sort());
    const again = await cli(['plan', '--database', db.url], { cwd: declared });
    expect(again.stdout).toContain('No changes');
    expect(again.stdout).not.toMatch(/^ {2}extension /m);
  });
});

describe.skipIf(!citusServers())('CREATE EXTENSION on Citus', () => {
  it('declared one by one, each reaches the workers (as CASCADE would have), and planning again is empty', async () => {
    const info = citusServers()!;
    const db = await freshDatabase(info, 'secrev');
    const dir = projectDir({
      'citus-migrate.yaml': 'version: 1\nsql: [ext.sql]\n',
      'ext.sql': 'CREATE EXTENSION earthdistance CASCADE;\n',
    });
    const refused = await cli(['apply', '--database', db.url, '--auto-approve', '--allow-hazards', 'all'], {
      cwd: dir,
    });
    expect(refused.code).toBe(3);
    for (const n of info.nodes.keys())
      expect(
        await sql(info, db.name, "SELECT extname FROM pg_extension WHERE extname IN ('cube', 'earthdistance')", n),
      ).toEqual([]);
    writeFileSync(join(dir, 'ext.sql'), 'CREATE EXTENSION cube;\nCREATE EXTENSION earthdistance;\n');
    const ok = await cli(['apply', '--database', db.url, '--auto-approve', '--allow-hazards', 'creates_extension'], {
      cwd: dir,
    });
    expect(ok.stderr).not.toContain('error');
    expect(ok.code).toBe(0);
    for (const n of info.nodes.keys())
      expect(
        await sql(
          info,
          db.name,
          "SELECT extname FROM pg_extension WHERE extname IN ('cube', 'earthdistance') ORDER BY 1",
          n,
        ),
      ).toEqual([{ extname: 'cube' }, { extname: 'earthdistance' }]);
    expect((await cli(['plan', '--database', db.url], { cwd: dir })).stdout).toContain('No changes');
  });
});

describe('privileges given to PUBLIC are named in full', () => {
  let db: TestDb;
  beforeEach(async () => {
    db = await freshDatabase(plainServers(), 'secrev');
  });

  it('the plan and the hazard refusal say what PUBLIC gets on what; "public" quoted is PUBLIC, on the server too', async () => {
    const dir = projectDir({
      'citus-migrate.yaml': `version: 1
schemas: { app: {} }
tables:
  app.t: { local: true, columns: { id: bigint } }
  app.u: { local: true, columns: { id: bigint } }
sql: [grants.sql]
`,
      'grants.sql': `GRANT ALL ON app.t TO PUBLIC;
GRANT SELECT ON app.u TO "public";
ALTER DEFAULT PRIVILEGES FOR ROLE ${quoteIdent(plainServers().user)} IN SCHEMA app GRANT SELECT ON TABLES TO PUBLIC;
`,
    });
    const T =
      'create privileges table app.t to PUBLIC: PUBLIC gets SELECT, INSERT, UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER on table app.t';
    const U = 'create privileges table app.u to PUBLIC: PUBLIC gets SELECT on table app.u';
    const D = `create privileges defaults for role ${quoteIdent(plainServers().user)} in schema app on tables to PUBLIC: PUBLIC gets SELECT on every table ${quoteIdent(plainServers().user)} creates in schema app from now on`;
    const plan = await cli(['plan', '--database', db.url], { cwd: dir });
    for (const s of [T, U, D]) expect(plan.stdout).toContain(`${s}  [public_privileges]\n`);
    const before = await snapshot(db);
    const refused = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: dir });
    expect(refused.code).toBe(4);
    expect(refused.stderr).toContain(`  public_privileges: step 4 (${T}); step 5 (${U}); step 6 (${D})\n`);
    expect(await snapshot(db)).toBe(before);
    const ok = await cli(['apply', '--database', db.url, '--auto-approve', '--allow-hazards', 'public_privileges'], {
      cwd: dir,
    });
    expect(ok.code).toBe(0);
    expect(ok.stderr).toContain(`] ${U}\n`);
    // PostgreSQL reads the grantee "public" as PUBLIC (its grammar compares the name once read):
    // the ACL has PUBLIC's entry (=r/…), and no role may be called public.
    const [acl] = await db.query<{ acl: string }>(
      "SELECT relacl::text AS acl FROM pg_class WHERE oid = 'app.u'::regclass",
    );
    expect(acl!.acl).toMatch(/[{,]=r\//);
    await expect(db.query('CREATE ROLE "public"')).rejects.toThrow('role name "public" is reserved');
    expect((await cli(['plan', '--database', db.url], { cwd: dir })).stdout).toContain('No changes');
  });

  it('WITH GRANT OPTION to PUBLIC is refused at validate, not at the server', async () => {
    const dir = projectDir({
      'citus-migrate.yaml': 'version: 1\nschemas: { app: {} }\nsql: [grants.sql]\n',
      'grants.sql': 'GRANT USAGE ON SCHEMA app TO PUBLIC WITH GRANT OPTION;\n',
    });
    const v = await cli(['validate'], { cwd: dir });
    expect(v.code).toBe(1);
    expect(v.stderr).toContain(
      'grants.sql:1:1: WITH GRANT OPTION to PUBLIC is refused: PostgreSQL grants options to roles only',
    );
    const before = await snapshot(db);
    const r = await cli(['apply', '--database', db.url, '--auto-approve', '--allow-hazards', 'all'], { cwd: dir });
    expect(r.code).toBe(3);
    expect(await snapshot(db)).toBe(before);
  });
});

describe('a saved plan is applied only with the manifest it names', () => {
  let db: TestDb;
  beforeEach(async () => {
    db = await freshDatabase(plainServers(), 'secrev');
  });
  const MANIFEST = 'version: 1\ntables:\n  t: { local: true, columns: { id: bigint } }\nsql: [sql]\n';

  it('naming a manifest that is not here: refused with -f another copy (exit 64) and without (exit 1); nothing runs', async () => {
    const dir = projectDir({ 'citus-migrate.yaml': MANIFEST, 'sql/v.sql': 'CREATE VIEW v AS SELECT 1 AS one;\n' });
    const plan = await cli(['plan', '--database', db.url, '--format', 'json', '-o', 'plan.json'], { cwd: dir });
    expect(plan.code).toBe(0);
    // Made elsewhere, from a manifest that is not on this machine; a copy of the same text is here.
    const doc = JSON.parse(readFileSync(join(dir, 'plan.json'), 'utf8'));
    doc.manifest.file = '/nonexistent/citus-migrate.yaml';
    doc.manifest.path = '/nonexistent/citus-migrate.yaml';
    writeFileSync(join(dir, 'plan.json'), JSON.stringify(doc));
    const before = await snapshot(db);
    const copy = await cli(
      ['apply', '--plan', 'plan.json', '-f', 'citus-migrate.yaml', '--database', db.url, '--auto-approve'],
      { cwd: dir },
    );
    expect(copy.stderr).toBe(
      'error: --plan plan.json was made from /nonexistent/citus-migrate.yaml, which is not here (tried /nonexistent/citus-migrate.yaml); -f citus-migrate.yaml does not stand in for it: plan again from citus-migrate.yaml\n',
    );
    expect(copy.code).toBe(64);
    const none = await cli(['apply', '--plan', 'plan.json', '--database', db.url, '--auto-approve'], { cwd: dir });
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('the manifest plan.json was made from is not here');
    expect(await snapshot(db)).toBe(before);
  });

  it('a manifest whose sql: files cannot be read is refused; nothing runs', async () => {
    const dir = projectDir({ 'citus-migrate.yaml': MANIFEST, 'sql/v.sql': 'CREATE VIEW v AS SELECT 1 AS one;\n' });
    expect((await cli(['plan', '--database', db.url, '--format', 'json', '-o', 'plan.json'], { cwd: dir })).code).toBe(
      0,
    );
    rmSync(join(dir, 'sql'), { recursive: true });
    const before = await snapshot(db);
    const r = await cli(['apply', '--plan', 'plan.json', '--database', db.url, '--auto-approve'], { cwd: dir });
    expect(r.stderr).toContain('sql[0]: file "sql" does not exist');
    expect(r.code).toBe(3);
    expect(await snapshot(db)).toBe(before);
  });
});

describe('connection strings libpq would read otherwise than written are refused before connecting', () => {
  let db: TestDb;
  beforeEach(async () => {
    db = await freshDatabase(plainServers(), 'secrev');
  });

  it('an "@" in a URL password, and "password= sslmode=…", exit 64 without printing the password', async () => {
    const info = plainServers();
    const node = info.nodes[0]!;
    const dir = projectDir('version: 1\ntables:\n  t: { local: true, columns: { id: bigint } }\n');
    const before = await snapshot(db);
    for (const [database, secret] of [
      [`postgresql://${encodeURIComponent(info.user)}:Se@cret@${node.host}:${node.port}/${db.name}`, 'Se@cret'],
      [
        `host=${node.host} port=${node.port} dbname=${db.name} user=${info.user} password= sslmode=disable`,
        'sslmode=disable',
      ],
    ] as const) {
      const r = await cli(['apply', '--database', database, '--auto-approve'], { cwd: dir });
      expect(r.code, database).toBe(64);
      expect(r.stderr).toContain('error: the URL does not parse: ');
      expect(r.stderr + r.stdout).not.toContain(secret);
      expect(r.stderr + r.stdout).not.toContain('cret@');
    }
    expect(await snapshot(db)).toBe(before);
  });
});
