// A column's attribute options as the user set them, and nothing of the server's own: PostgreSQL
// 15.20 keeps `pg_attver=N` in the attoptions of every column it creates (SET and RESET ignore it,
// pg_dump does not print it). Read as an option, every table of every database adopted with
// `options: { pg_attver: … }`, which the manifest then refused.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshDatabase, plainServers } from '../support/db.js';
import { schemaDump } from '../support/dump.js';
import { projectDir } from '../support/project.js';
import { cli } from '../support/run-cli.js';

const server = plainServers();

describe('attribute options', () => {
  it('the server’s own pg_attver is no option: introspect leaves it out, the plan compares without it', async () => {
    const db = await freshDatabase(server, 'attver');
    await db.query('CREATE TABLE t (a int, b text)');
    await db.query('ALTER TABLE t ALTER COLUMN a SET (n_distinct = -0.5)');
    const v = (await db.query<{ v: number }>("SELECT current_setting('server_version_num')::int AS v"))[0]!.v;
    const raw = await db.query<{ o: string[] | null }>(
      "SELECT attoptions AS o FROM pg_attribute WHERE attrelid = 't'::regclass AND attname = 'b'",
    );
    // The fact, where the server has it (15.20 on): a column nobody set an option on has one.
    if (v >= 150020) expect(raw[0]!.o?.[0]).toMatch(/^pg_attver=\d+$/);

    const dir = projectDir({});
    const i = await cli(['introspect', '--database', db.url, '-o', 'citus-migrate.yaml'], { cwd: dir });
    expect(i.code, i.stderr).toBe(0);
    const manifest = readFileSync(join(dir, 'citus-migrate.yaml'), 'utf8');
    expect(manifest).not.toContain('pg_attver');
    expect(manifest).toContain('n_distinct: -0.5');
    const self = await cli(['plan', '--database', db.url, '--detailed-exitcode', '--include-unmanaged'], { cwd: dir });
    expect(self.code, self.stdout + self.stderr).toBe(0);

    const copy = await freshDatabase(server, 'attver_copy');
    const r = await cli(['apply', '--database', copy.url, '--auto-approve'], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(schemaDump(copy)).toEqual(schemaDump(db));
  });
});
