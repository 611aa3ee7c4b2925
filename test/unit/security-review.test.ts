// The first security review's last findings, without a database: what a sql: file may hold (every
// statement that is not a declaration is refused at validate with file:line:col and why), CREATE
// EXTENSION … CASCADE, what a plan says PUBLIC gets, a saved plan's manifest, and connection
// strings read exactly as libpq reads them or refused before connecting.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { savedPlanManifest, type SavedPlan } from '../../src/apply/saved-plan.js';
import { connectionTarget } from '../../src/db/connect.js';
import { parseConnection } from '../../src/db/database-url.js';
import { objectsFromSql } from '../../src/objects/from-sql.js';
import { summarize } from '../../src/plan/steps/step-spec.js';
import type { Step } from '../../src/plan/steps/steps.js';
import { loadParser, typeFromNode, type Node } from '../../src/sql/pg-parse.js';
import { projectDir } from '../support/project.js';
import { cli } from '../support/run-cli.js';

beforeAll(async () => {
  await loadParser();
});

const argTypes = (owa: Node): string =>
  (owa.objargs ?? []).map((t: Node) => typeFromNode(t.TypeName ?? t).sql).join(', ');
const read = (text: string) => objectsFromSql([{ file: 'x.sql', text }], 'public', argTypes);

const ROLE =
  'is refused: it changes whose privileges the statements after it run with; the plan runs each statement as the role that applies it, and would not run this line';
const NOT_RUN = 'the plan would not run it (it renders each declaration on its own)';
const DECLARATIONS = 'a sql: file holds declarations only, and the plan would not run it';
const SELECT =
  "a SELECT is not a declaration and is not run by the plan (only pg_dump's set_config('search_path', '', false) line is accepted): call functions from a migration of your own, not from a sql: file";

/** Each statement that is not a declaration, and exactly what validate says of it. */
const REFUSED: readonly (readonly [string, string])[] = [
  ['SET ROLE hostile;', `SET ROLE ${ROLE}`],
  ['SET SESSION AUTHORIZATION hostile;', `SET SESSION AUTHORIZATION ${ROLE}`],
  ['SET LOCAL ROLE hostile;', `SET LOCAL ROLE ${ROLE}`],
  ['RESET ROLE;', `RESET ROLE ${ROLE}`],
  ['RESET SESSION AUTHORIZATION;', `RESET SESSION AUTHORIZATION ${ROLE}`],
  ['SET ROLE NONE;', `SET ROLE ${ROLE}`],
  ['RESET ALL;', `RESET ALL is refused: it resets every session setting, the role among them; ${NOT_RUN}`],
  [
    'SET search_path = evil, public;',
    'SET search_path names 2 schemas: the plan runs each statement after it with search_path set to one schema (pg_catalog searched first), so name one: SET search_path TO <schema>',
  ],
  [
    'SET search_path TO "$user", public;',
    'SET search_path names 2 schemas: the plan runs each statement after it with search_path set to one schema (pg_catalog searched first), so name one: SET search_path TO <schema>',
  ],
  [
    'SET search_path TO pg_temp;',
    'SET search_path TO "pg_temp" is refused: name the schema the statements after it declare their objects in (not "$user", pg_catalog or pg_temp)',
  ],
  [
    'SET LOCAL search_path = app;',
    'SET LOCAL search_path is refused: write SET search_path TO <schema> (it holds for the rest of the file, and the plan sets it before each statement after it)',
  ],
  [
    'RESET search_path;',
    'RESET search_path is refused: write SET search_path TO <schema> (the plan sets that schema before each statement after it)',
  ],
  [
    'SET default_tablespace = evil;',
    `SET default_tablespace TO "evil" is refused: it would change what the statements after it mean, and ${NOT_RUN}; only pg_dump's SET default_tablespace TO '' is accepted`,
  ],
  [
    'SET default_table_access_method = columnar;',
    `SET default_table_access_method TO "columnar" is refused: it would change what the statements after it mean, and ${NOT_RUN}; only pg_dump's SET default_table_access_method TO heap is accepted`,
  ],
  [
    'SET standard_conforming_strings = off;',
    `SET standard_conforming_strings TO "off" is refused: it would change what the statements after it mean, and ${NOT_RUN}; only pg_dump's SET standard_conforming_strings TO on is accepted`,
  ],
  [
    "SET client_encoding = 'LATIN1';",
    `SET client_encoding TO "LATIN1" is refused: it would change what the statements after it mean, and ${NOT_RUN}; only pg_dump's SET client_encoding TO 'UTF8' is accepted`,
  ],
  [
    "SET session_preload_libraries = 'evil';",
    `SET session_preload_libraries is refused: ${NOT_RUN}; a sql: file may hold SET search_path TO <schema> and the session settings pg_dump writes`,
  ],
  [
    'SET LOCAL statement_timeout = 0;',
    `SET LOCAL statement_timeout is refused: ${NOT_RUN}; a sql: file may hold SET search_path TO <schema> and the session settings pg_dump writes`,
  ],
  ["SELECT set_config('role', 'hostile', false);", SELECT],
  ["SELECT pg_catalog.set_config('search_path', 'evil', false);", SELECT],
  [
    'DO $$ BEGIN PERFORM 1; END $$;',
    `DO is refused: it runs code with the privileges of whoever applies the plan; ${DECLARATIONS}`,
  ],
  ['EXECUTE p;', `EXECUTE is refused: it runs code with the privileges of whoever applies the plan; ${DECLARATIONS}`],
  ['CALL app.p();', `CALL is refused: it runs code with the privileges of whoever applies the plan; ${DECLARATIONS}`],
  ['PREPARE p AS SELECT 1;', `PREPARE is refused: it prepares a statement to run; ${DECLARATIONS}`],
  ["LOAD 'evil';", `LOAD is refused: it loads a shared library into the server; ${DECLARATIONS}`],
  [
    "COPY (SELECT 1) TO PROGRAM 'id';",
    `COPY is refused: it reads or writes rows (COPY … PROGRAM runs a shell command on the server); ${DECLARATIONS}`,
  ],
  ['ALTER SYSTEM SET work_mem = 1;', `ALTER SYSTEM is refused: it changes the server's configuration; ${DECLARATIONS}`],
  [
    'ALTER ROLE hostile SUPERUSER;',
    `ALTER ROLE is refused: it changes roles, their attributes or what they own, which the tool does not manage; ${DECLARATIONS}`,
  ],
  [
    'CREATE ROLE made SUPERUSER;',
    `CREATE ROLE is refused: it changes roles, their attributes or what they own, which the tool does not manage; ${DECLARATIONS}`,
  ],
  [
    'GRANT pg_read_server_files TO hostile;',
    `GRANT / REVOKE of a role is refused: it changes roles, their attributes or what they own, which the tool does not manage; ${DECLARATIONS}`,
  ],
  [
    'ALTER ROLE hostile SET search_path = evil;',
    `ALTER ROLE … SET is refused: it changes settings that later sessions start with; ${DECLARATIONS}`,
  ],
  [
    // A named owner is declared (objects/owner-objects.ts); who CURRENT_USER is depends on who applies.
    'ALTER FUNCTION app.f() OWNER TO CURRENT_USER;',
    'OWNER TO CURRENT_USER / CURRENT_ROLE / SESSION_USER is refused: who that is depends on who applies the plan; name the role (an object no statement gives to a role belongs to the role that applies the plan)',
  ],
  ['COMMIT;', `BEGIN / COMMIT / ROLLBACK is refused: the plan is one transaction of its own; ${DECLARATIONS}`],
  [
    'CREATE EXTENSION earthdistance CASCADE;',
    'CREATE EXTENSION … CASCADE is refused: it would also create the extensions earthdistance requires, which the plan would not list; declare each of them with a CREATE EXTENSION of its own before this one, and drop CASCADE',
  ],
  [
    'GRANT USAGE ON SCHEMA app TO PUBLIC WITH GRANT OPTION;',
    'WITH GRANT OPTION to PUBLIC is refused: PostgreSQL grants options to roles only (every role would be able to grant it on)',
  ],
  [
    'ALTER DEFAULT PRIVILEGES FOR ROLE app GRANT SELECT ON TABLES TO "public" WITH GRANT OPTION;',
    'WITH GRANT OPTION to PUBLIC is refused: PostgreSQL grants options to roles only (every role would be able to grant it on)',
  ],
  [
    'GRANT SELECT ON ALL TABLES IN SCHEMA app TO PUBLIC;',
    'GRANT … ON ALL … IN SCHEMA is not supported (the objects it covers are known only when it runs): grant on each object, and use ALTER DEFAULT PRIVILEGES FOR ROLE … IN SCHEMA … for those made later',
  ],
];

describe('a sql: file holds declarations only', () => {
  it('refuses every other statement at its file:line:col, saying why', () => {
    const text = REFUSED.map(([s], i) => `${i % 2 ? '  ' : ''}${s}`).join('\n');
    const { objects, problems } = read(text);
    expect(problems.map((p) => `${p.where} ${p.code} ${p.message}`)).toEqual(
      REFUSED.map(([, why], i) => `x.sql:${i + 1}:${i % 2 ? 3 : 1} unsupported_statement ${why}`),
    );
    expect(objects).toEqual({});
  });

  it('validate exits 1 naming each refused line of the file, and plan refuses it too', async () => {
    const dir = projectDir({
      'citus-migrate.yaml': 'version: 1\nsql: [sql]\n',
      'sql/a.sql': `CREATE VIEW v AS SELECT 1 AS one;\n${REFUSED.map(([s]) => s).join('\n')}\n`,
    });
    const v = await cli(['validate'], { cwd: dir });
    expect(v.code).toBe(1);
    for (const [i, [, why]] of REFUSED.entries()) expect(v.stderr).toContain(`sql/a.sql:${i + 2}:1: ${why}\n`);
    expect(v.stderr).toContain(`manifest is invalid: ${REFUSED.length} problems`);
    const p = await cli(['plan', '--offline'], { cwd: dir });
    expect(p.code).toBe(3);
    expect(p.stdout).toBe('');
  });

  it("accepts pg_dump's header at its values, and SET search_path TO one schema, as the plan shows it", () => {
    const text = `SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET transaction_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;
SET default_tablespace = '';
SET default_table_access_method = heap;
SET search_path = app, pg_catalog;
CREATE VIEW v AS SELECT 1 AS one;
SET search_path TO "Other";
CREATE VIEW w AS SELECT 2 AS two;`;
    const { objects, problems } = read(text);
    expect(problems).toEqual([]);
    expect(Object.values(objects).map((o) => `${o.id} (${o.searchPath})`)).toEqual([
      'view app.v (app)',
      'view "Other".w (Other)',
    ]);
  });

  it('takes each extension declared on its own, in order', () => {
    const { objects, problems } = read('CREATE EXTENSION cube;\nCREATE EXTENSION earthdistance;');
    expect(problems).toEqual([]);
    expect(Object.keys(objects)).toEqual(['extension cube', 'extension earthdistance']);
  });
});

describe('what PUBLIC gets, in every format', () => {
  const manifest = `version: 1
schemas: { app: {} }
tables:
  app.t: { local: true, columns: { id: bigint, secret: text } }
  app.u: { local: true, columns: { id: bigint } }
sql: [grants.sql]
`;
  const grants = `GRANT ALL ON app.t TO PUBLIC;
GRANT SELECT ON app.u TO "public";
GRANT SELECT (id) ON app.t TO U&"\\0070ublic";
GRANT SELECT ON app.u TO "PUBLIC";
ALTER DEFAULT PRIVILEGES FOR ROLE app IN SCHEMA app GRANT SELECT, UPDATE ON TABLES TO PUBLIC;
`;
  const T =
    'create privileges table app.t to PUBLIC: PUBLIC gets SELECT, INSERT, UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER on table app.t; SELECT (id) on table app.t';
  const U = 'create privileges table app.u to PUBLIC: PUBLIC gets SELECT on table app.u';
  const D =
    'create privileges defaults for role app in schema app on tables to PUBLIC: PUBLIC gets SELECT, UPDATE on every table app creates in schema app from now on';
  const ROLE_NAMED_PUBLIC = 'create privileges table app.u to "PUBLIC"';

  it('text, markdown, json and sql name the privileges, the objects and PUBLIC', async () => {
    const dir = projectDir({ 'citus-migrate.yaml': manifest, 'grants.sql': grants });
    const run = async (format: string): Promise<string> => {
      const r = await cli(['plan', '--offline', '--format', format], { cwd: dir });
      expect(r.code).toBe(0);
      return r.stdout;
    };
    const text = await run('text');
    for (const s of [T, U, D]) expect(text).toContain(`${s}  [public_privileges]\n`);
    // A role may not be called "public", but it may be called "PUBLIC": that grant has no hazard.
    expect(text).toContain(`${ROLE_NAMED_PUBLIC}\n`);
    const md = await run('markdown');
    for (const s of [T, U, D]) expect(md).toContain(`| ${s} | \`public_privileges\` |`);
    const sqlText = await run('sql');
    for (const s of [T, U, D]) expect(sqlText).toContain(`] ${s} (hazards: public_privileges)\n`);
    const doc = JSON.parse(await run('json')) as { transaction: { steps: { summary: string; hazards: string[] }[] } };
    const pub = doc.transaction.steps.filter((s) => s.hazards.includes('public_privileges')).map((s) => s.summary);
    expect(pub).toEqual([T, U, D]);
  });

  it('a step that gives PUBLIC back what a REVOKE took says so', () => {
    const step = {
      kind: 'drop_object',
      object: 'privileges function app.f(integer) revoked from PUBLIC',
      objectKind: 'privileges',
      statements: ['GRANT EXECUTE ON FUNCTION app.f(integer) TO PUBLIC'],
      reason: 'prune',
    } as Step;
    expect(summarize(step)).toBe(
      'drop privileges function app.f(integer) revoked from PUBLIC (prune): PUBLIC gets EXECUTE on function app.f(integer)',
    );
    expect(summarize({ ...step, statements: ['REVOKE EXECUTE ON FUNCTION app.f(integer) FROM PUBLIC'] } as Step)).toBe(
      'drop privileges function app.f(integer) revoked from PUBLIC (prune)',
    );
  });
});

describe("a saved plan's manifest", () => {
  const saved = (file: string, path: string): SavedPlan =>
    ({ manifest: { file, path, sha256: 'x' } }) as unknown as SavedPlan;

  it('-f does not stand in for a manifest the plan names that is not here (exit 64)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cm-saved-'));
    writeFileSync(join(dir, 'copy.yaml'), 'version: 1\n');
    let error: { message: string; exitCode: number } | undefined;
    try {
      savedPlanManifest(saved('/nonexistent/m.yaml', '/nonexistent/m.yaml'), 'plan.json', dir, 'copy.yaml');
    } catch (e) {
      error = e as { message: string; exitCode: number };
    }
    expect(error?.exitCode).toBe(64);
    expect(error?.message).toBe(
      '--plan plan.json was made from /nonexistent/m.yaml, which is not here (tried /nonexistent/m.yaml); -f copy.yaml does not stand in for it: plan again from copy.yaml',
    );
  });

  it('-f must be the manifest the plan names when the plan names one that is here; without -f, a missing one is refused', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cm-saved-'));
    mkdirSync(join(dir, 'p'));
    writeFileSync(join(dir, 'p', 'citus-migrate.yaml'), 'version: 1\n');
    writeFileSync(join(dir, 'copy.yaml'), 'version: 1\n');
    // The plan moved with its project: found beside the plan file, whatever its absolute path said.
    const moved = saved('citus-migrate.yaml', '/elsewhere/citus-migrate.yaml');
    expect(savedPlanManifest(moved, 'p/plan.json', dir, 'p/citus-migrate.yaml')).toBe('p/citus-migrate.yaml');
    expect(() => savedPlanManifest(moved, 'p/plan.json', dir, 'copy.yaml')).toThrow(
      `-f copy.yaml and --plan p/plan.json name different manifests: the plan was made from ${join(dir, 'p', 'citus-migrate.yaml')}; drop -f, or plan again from copy.yaml`,
    );
    expect(() => savedPlanManifest(saved('gone.yaml', '/nonexistent/gone.yaml'), 'plan.json', dir, undefined)).toThrow(
      `the manifest plan.json was made from is not here: tried ${join(dir, 'gone.yaml')}, /nonexistent/gone.yaml; nothing was run (plan again)`,
    );
  });
});

describe('connection strings: what libpq reads, or refused before connecting', () => {
  // Each expectation is what libpq 15's PQconninfoParse returns for the same text (checked by
  // calling it), or a refusal where libpq's reading would take part of a password for a host, a
  // port or a user name (printed in messages), or a word the user meant as another keyword.
  const refused = (text: string): string => {
    try {
      parseConnection(text);
    } catch (e) {
      expect((e as { exitCode: number }).exitCode).toBe(64);
      return (e as Error).message.replace(/ \(expected postgresql:.*$/, '');
    }
    throw new Error(`parsed: ${text}`);
  };

  it('a URL password may hold "?" and "#" (libpq ends it at the first "@", not at "?")', () => {
    expect(parseConnection('postgresql://u:pa?ss@h/db')).toEqual({
      conn: { user: 'u', password: 'pa?ss', host: 'h', database: 'db', params: {} },
      masked: 'postgresql://u:********@h/db',
    });
    expect(parseConnection('postgresql://u:pa#ss@h/db').conn.password).toBe('pa#ss');
    expect(parseConnection('postgresql://u:pa?ss@h?host=g').conn).toEqual({
      user: 'u',
      password: 'pa?ss',
      host: 'g',
      params: {},
    });
  });

  it('refuses an "@" in a URL password or user name: libpq would read the rest as the host', () => {
    const why =
      'the URL does not parse: an "@" in the user name or password (libpq ends them at the first "@" and reads the rest as the host: write it %40)';
    expect(refused('postgresql://u:p@ss@h/db')).toBe(`${why}: postgresql://u:********@h/db`);
    expect(refused('postgresql://u:pa?s#s@w:rd@h:6000/db')).toBe(`${why}: postgresql://u:********@h:6000/db`);
    expect(refused('postgresql://u@x:p@h/db')).toBe(`${why}: postgresql://u@x:********@h/db`);
    expect(parseConnection('postgresql://u:p%40ss@h/db').conn.password).toBe('p@ss');
    // After the host, an "@" is the query's: libpq reads it so too.
    expect(parseConnection('postgresql://u@h?password=a@b').conn.password).toBe('a@b');
  });

  it('refuses a "?" in what libpq would read as the user name (a query written before the "@")', () => {
    expect(refused('postgresql://h?password=secret@g/db')).toBe(
      'the URL does not parse: a "?" before the "@" (libpq reads all of it as the user name: write "?" in a user name as %3F): postgresql://********@g/db',
    );
  });

  it('an empty URL password is none (PGPASSWORD and the password file apply); an empty password= is empty', async () => {
    const pw = (t: ReturnType<typeof connectionTarget>) => (t.config.password as () => Promise<string>)();
    expect(parseConnection('postgresql://u:@h/db').conn).toEqual({ user: 'u', host: 'h', database: 'db', params: {} });
    await expect(pw(connectionTarget('postgresql://u:@h/db', { PGPASSWORD: 'y' }))).resolves.toBe('y');
    // libpq: an empty password= is not replaced by PGPASSWORD; the password file is read, and
    // without one there is no password to give (not an empty one).
    const dir = mkdtempSync(join(tmpdir(), 'cm-pgpass-'));
    writeFileSync(join(dir, 'pgpass'), 'h:5432:*:u:from-file\n', { mode: 0o600 });
    const env = { PGPASSWORD: 'y', PGPASSFILE: join(dir, 'pgpass') };
    await expect(pw(connectionTarget("host=h user=u password=''", env))).resolves.toBe('from-file');
    await expect(pw(connectionTarget('postgresql://u@h/db?password=', env))).resolves.toBe('from-file');
    await expect(
      pw(connectionTarget("host=h user=u password=''", { PGPASSWORD: 'y', PGPASSFILE: '/nonexistent' })),
    ).rejects.toThrow('no password given for user u');
  });

  it('key=value: spaces around "=" as libpq; "password= host=h" (libpq: password "host=h") is refused', () => {
    expect(parseConnection('password = x host=h').conn).toEqual({ password: 'x', host: 'h', params: {} });
    expect(parseConnection('host=h password = ').conn).toEqual({ password: '', host: 'h', params: {} });
    expect(refused('password= host=h')).toBe(
      `the URL does not parse: "password=" is followed by white space and host=…, which libpq would take for its value: write password='' for an empty value, or quote the value: password= ********`,
    );
    expect(refused('host=h port= dbname=d')).toContain('"port=" is followed by white space and dbname=…');
    // Without the space it is one word, as written: libpq's password "host=h".
    expect(parseConnection('password=host=h').conn.password).toBe('host=h');
  });

  it('key=value quotes: single quotes with backslash escapes; double quotes are characters; no word of a password is printed', () => {
    expect(parseConnection("password='a b\\'c' host=h").conn.password).toBe("a b'c");
    expect(parseConnection('password="ab" host=h').conn.password).toBe('"ab"');
    expect(parseConnection('password=x#y host=h').conn.password).toBe('x#y');
    // libpq refuses these too ('missing "=" after "…"'), naming the word: here it is not named,
    // since it is the rest of the password.
    expect(refused('host=h password=secret word')).toBe(
      'the URL does not parse: missing "=" after a word that is not a libpq keyword: host=h password=******** ********',
    );
    expect(refused("host=h password='x''tail'")).toBe(
      'the URL does not parse: missing "=" after a word that is not a libpq keyword: host=h password=****************',
    );
  });
});
