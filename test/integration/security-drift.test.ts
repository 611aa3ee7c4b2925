// What a drift check (`plan --detailed-exitcode --include-unmanaged`) must see when a lower role
// hides things from it: objects it plants, of kinds the tool manages or only names, and `ignore:`
// globs it counts on to reach beyond their schema. The check exits 2 and names each of them.
import { beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, plainServers, type TestDb } from '../support/db.js';
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
