// ALTER EXTENSION … UPDATE TO follows the update scripts the server has: the plan asks PostgreSQL
// (pg_extension_update_paths) which versions the installed one reaches, so a version with no path
// — older, or one the server does not have at all — is a plan problem naming those it reaches,
// and apply refuses it with the database unchanged; a version with a path is planned and applied
// once widens_access is allowed (the update scripts run with the applier's rights).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, plainServers, type TestDb } from '../support/db.js';
import { cli } from '../support/run-cli.js';

function project(version: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'cm-ext-'));
  writeFileSync(join(dir, 'citus-migrate.yaml'), 'version: 1\nsql: [extensions.sql]\n');
  writeFileSync(join(dir, 'extensions.sql'), `CREATE EXTENSION hstore WITH SCHEMA public VERSION '${version}';\n`);
  return dir;
}

interface Planned {
  transaction: { steps: { summary: string }[] };
  problems: { code: string; object: string; message: string }[];
}
const plan = async (dir: string, db: TestDb): Promise<Planned> =>
  JSON.parse((await cli(['plan', '--database', db.url, '--format', 'json'], { cwd: dir })).stdout) as Planned;
const installed = async (db: TestDb): Promise<unknown> =>
  (await db.query("SELECT extversion FROM pg_extension WHERE extname = 'hstore'"))[0];

describe('extension updates follow the server’s update paths', () => {
  let db: TestDb;
  beforeAll(async () => {
    db = await freshDatabase(plainServers(), 'ext');
    await db.query("CREATE EXTENSION hstore VERSION '1.6'");
  });

  it.each([
    ['a version the server does not have', '1.9'],
    ['an older version', '1.5'],
  ])('%s is a problem naming the versions it can reach; apply refuses it', async (_n, version) => {
    const dir = project(version);
    const p = await plan(dir, db);
    expect(p.problems).toEqual([
      {
        code: 'extension_no_update_path',
        object: 'extension hstore',
        message: `is at version 1.6: PostgreSQL has no update path from it to ${version} (pg_extension_update_paths); it can be updated to 1.7, 1.8: declare 1.6 or one of those, or drop and create it by hand`,
      },
    ]);
    const r = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: dir });
    expect(r.code).not.toBe(0);
    expect(await installed(db)).toEqual({ extversion: '1.6' });
  });

  it('a version with a path is updated to (its scripts run with the applier’s rights: widens_access), and planning again is empty', async () => {
    const dir = project('1.8');
    expect((await plan(dir, db)).problems).toEqual([]);
    const refused = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: dir });
    expect(refused.code).toBe(4);
    expect(refused.stderr).toContain(
      "widens_access: step 1 (update extension hstore; widens access: extension hstore is updated to version 1.8 (its scripts run with this role's rights))",
    );
    expect(await installed(db)).toEqual({ extversion: '1.6' });
    const r = await cli(['apply', '--database', db.url, '--auto-approve', '--allow-hazards', 'widens_access'], {
      cwd: dir,
    });
    expect(r.code).toBe(0);
    expect(await installed(db)).toEqual({ extversion: '1.8' });
    expect((await plan(dir, db)).transaction.steps).toEqual([]);
  });
});
