// User mappings against real servers: introspect writes each secret as a `${env:NAME}` placeholder
// (the catalog never gives it), the plan compares the variable's digest with the cluster's (or
// warns that it could not), apply sends the value and refuses, before anything runs, when the
// variable is not set; no output, file or history row ever holds a password. Round trip: a copy
// built from the manifest dumps (pg_dump, which prints the options) equal. On Citus the mapping
// stays on the coordinator: Citus 13 does not propagate CREATE USER MAPPING (pinned here).
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { citusServers, freshDatabase, plainServers, sql, type TestDb } from '../support/db.js';
import { schemaDump } from '../support/dump.js';
import { projectDir } from '../support/project.js';
import { cli } from '../support/run-cli.js';
import type { ServerInfo } from '../support/servers.js';

const plain = plainServers();
const citus = citusServers();
const SECRET = "hunter2-'quoted'-\\x";

async function setUp(info: ServerInfo, prefix: string): Promise<{ db: TestDb; role: string }> {
  const db = await freshDatabase(info, prefix);
  const role = `um_${db.name}`;
  await db.query(`CREATE ROLE ${role}`);
  await db.query(`CREATE EXTENSION postgres_fdw;
    CREATE SERVER remote FOREIGN DATA WRAPPER postgres_fdw OPTIONS (host 'db.example', dbname 'app');
    CREATE USER MAPPING FOR ${role} SERVER remote OPTIONS (user 'app', password E'${SECRET.replace(/\\/g, '\\\\').replace(/'/g, "''")}');
    CREATE USER MAPPING FOR PUBLIC SERVER remote OPTIONS (user 'guest')`);
  return { db, role };
}

const options = async (db: TestDb, role: string): Promise<string[] | null> =>
  (
    await db.query<{ o: string[] | null }>(
      `SELECT umoptions AS o FROM pg_user_mapping m JOIN pg_roles r ON r.oid = m.umuser WHERE r.rolname = '${role}'`,
    )
  )[0]?.o ?? null;

/** Every file of a project, as one text. */
const filesOf = (dir: string): string =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => readFileSync(join(e.parentPath, e.name), 'utf8'))
    .join('\n');

describe.skipIf(!plain)('user mappings', () => {
  it('introspect, plan, apply and prove with secrets from the environment, none of them ever shown', async () => {
    const { db, role } = await setUp(plain!, 'umap');
    const name = `CM_REMOTE_${role.toUpperCase()}_PASSWORD`;
    const dir = projectDir({});
    const seen: string[] = [];
    const run = async (args: string[], env: Record<string, string> = {}) => {
      const r = await cli([...args, '--database', db.url], { cwd: dir, env });
      seen.push(r.stdout, r.stderr);
      return r;
    };
    const intro = await run(['introspect', '-o', 'citus-migrate.yaml']);
    expect(intro.code, intro.stderr).toBe(0);
    const file = readFileSync(join(dir, 'sql', 'user-mappings.sql'), 'utf8');
    expect(file).toContain(`-- Secrets the cluster does not give: set ${name} where plan and apply run.`);
    expect(file).toContain(
      `CREATE USER MAPPING FOR ${role} SERVER remote OPTIONS ("user" 'app', password '\${env:${name}}');`,
    );
    expect(file).toContain(`CREATE USER MAPPING FOR PUBLIC SERVER remote OPTIONS ("user" 'guest');`);

    // Unset: equal but for the password, which the plan says it did not compare.
    const unset = await run(['plan', '--detailed-exitcode']);
    expect(unset.code, unset.stdout).toBe(2); // may differ: never passed as no drift
    expect(unset.stdout).toContain(`${name} is not set here: its value is not compared`);
    expect(unset.stdout).not.toContain('matches the manifest');
    expect(unset.stdout).toContain(
      'No changes to what could be compared: 1 secret not compared (its environment variable is unset)',
    );
    expect((await run(['plan', '--detailed-exitcode'], { [name]: SECRET })).code).toBe(0);
    // Another value: the mapping is made again, its old secret shown as (secret).
    const other = await run(['plan', '--detailed-exitcode'], { [name]: 'n3w' });
    expect(other.code, other.stdout).toBe(2);
    expect(other.stdout).toContain(
      `- CREATE USER MAPPING FOR ${role} SERVER remote OPTIONS ("user" 'app', password '(secret)')`,
    );
    const applied = await run(['apply', '--auto-approve'], { [name]: 'n3w' });
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expect(applied.stdout).toContain('verified: planning again is empty');
    expect(await options(db, role)).toEqual(['user=app', 'password=n3w']);
    expect((await run(['plan', '--detailed-exitcode'], { [name]: 'n3w' })).code).toBe(0);

    // Gone from the cluster and the variable unset: refused before anything runs.
    await db.query(`DROP USER MAPPING FOR ${role} SERVER remote`);
    const refused = await run(['apply', '--auto-approve']);
    expect(refused.code, refused.stdout + refused.stderr).toBe(3);
    expect(refused.stderr).toContain(`${name}: step 1 (create user mapping for ${role} server remote)`);
    expect(await options(db, role)).toBeNull();
    // --prove runs it on a copy without the value: not compared there either, so it converges.
    const proved = await run(['plan', '--prove']);
    expect(proved.stdout).toContain('applied, and planning again was empty; the copy planned the same');
    // psql's script reads it from the environment.
    const script = await run(['plan', '--format', 'sql']);
    expect(script.stdout).toContain(`\\getenv ${name} ${name}`);
    expect(script.stdout).toContain(`password :'${name}')`);
    expect((await run(['apply', '--auto-approve'], { [name]: SECRET })).code).toBe(0);
    expect(await options(db, role)).toEqual(['user=app', `password=${SECRET}`]);

    // A copy built from the manifest dumps equal (pg_dump prints the options, password too).
    const copy = await freshDatabase(plain!, 'umapc');
    const built = await cli(
      ['apply', '--database', copy.url, '--auto-approve', '--allow-hazards', 'creates_extension'],
      {
        cwd: dir,
        env: { [name]: SECRET },
      },
    );
    expect(built.code, built.stdout + built.stderr).toBe(0);
    expect(schemaDump(copy)).toEqual(schemaDump(db));
    expect(schemaDump(copy)).toContain('password');

    const history = await db.query<{ t: string }>(
      'SELECT pg_catalog.row_to_json(a)::text AS t FROM citus_migrate.applies a',
    );
    for (const text of [...seen, filesOf(dir), ...history.map((h) => h.t)]) {
      expect(text).not.toContain('hunter2');
      expect(text).not.toContain('n3w');
    }
  });

  it('planned by a role that may not read their options: named as not managed', async () => {
    const { db, role } = await setUp(plain!, 'umread');
    const reader = `${role}_r`;
    await db.query(`CREATE ROLE ${reader} LOGIN`);
    const url = db.url.replace(/\/\/[^@/]+@/, `//${reader}@`);
    const r = await cli(['plan', '--database', url, '--format', 'json'], { cwd: projectDir('version: 1\n') });
    const doc = JSON.parse(r.stdout) as { notManaged: { kind: string; name: string }[]; transaction: unknown };
    expect(doc.notManaged.filter((x) => x.kind === 'user mapping').map((x) => x.name)).toEqual([
      'for PUBLIC server remote',
      `for ${role} server remote`,
    ]);
    expect(r.stdout).not.toContain('hunter2');
  });

  it('a literal password in a file is refused at its line, and nothing is read or changed', async () => {
    const { db, role } = await setUp(plain!, 'umlit');
    const dir = projectDir({
      'citus-migrate.yaml': 'version: 1\nsql: [sql]\n',
      'sql/m.sql': `CREATE EXTENSION postgres_fdw;\nCREATE USER MAPPING FOR ${role} SERVER remote OPTIONS (password 'letmein');\n`,
    });
    const r = await cli(['plan', '--database', db.url], { cwd: dir });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('sql/m.sql:2:1: option password of a user mapping may hold a secret');
    expect(r.stderr).not.toContain('letmein');
  });
});

describe.skipIf(!citus)('user mappings on Citus', () => {
  it('live on the coordinator only: Citus 13 does not propagate CREATE USER MAPPING', async () => {
    const { db, role } = await setUp(citus!, 'umcit');
    for (const node of [1, 2])
      expect(await sql<{ n: number }>(citus!, db.name, 'SELECT count(*)::int AS n FROM pg_user_mapping', node)).toEqual(
        [{ n: 0 }],
      );
    const name = `CM_REMOTE_${role.toUpperCase()}_PASSWORD`;
    const dir = projectDir({});
    expect((await cli(['introspect', '--database', db.url, '-o', 'citus-migrate.yaml'], { cwd: dir })).code).toBe(0);
    await db.query(`DROP USER MAPPING FOR ${role} SERVER remote`);
    const r = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: dir, env: { [name]: SECRET } });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(await options(db, role)).toEqual(['user=app', `password=${SECRET}`]);
    for (const node of [1, 2])
      expect(await sql<{ n: number }>(citus!, db.name, 'SELECT count(*)::int AS n FROM pg_user_mapping', node)).toEqual(
        [{ n: 0 }],
      );
    expect(
      (await cli(['plan', '--database', db.url, '--detailed-exitcode'], { cwd: dir, env: { [name]: SECRET } })).code,
    ).toBe(0);
  });
});
