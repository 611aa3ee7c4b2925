// The bad-input corpus (test/bad-input/, one file per case): each case's exit code and message,
// no stack trace ever, and where a database is given, its catalog byte-for-byte unchanged.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { badInputCases, splitArgs, STACK_FRAME } from '../support/bad-input.js';
import { catalogSnapshot, freshDatabase, plainServers, type TestDb } from '../support/db.js';
import { cli } from '../support/run-cli.js';

const catalog = (db: TestDb): Promise<string> => catalogSnapshot(db);

const cases = badInputCases();

describe('bad-input corpus', () => {
  it('has at least 100 cases', () => expect(cases.length).toBeGreaterThanOrEqual(100));

  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    let db: TestDb | undefined;
    if (c.db) {
      db = await freshDatabase(plainServers(), 'bad');
      if (c.db === 'plain-with-stray') await db.query('CREATE TABLE stray (x int)');
    }
    const before = db ? await catalog(db) : undefined;
    const args = splitArgs(c.args.replaceAll('{file}', c.file).replaceAll('{db}', db?.url ?? ''));
    const r = await cli(args, { env: {} });
    expect(r.stderr).not.toMatch(STACK_FRAME);
    expect(r.stderr).toContain(c.stderr!);
    expect(r.code).toBe(c.exit);
    if (db) expect(await catalog(db)).toBe(before);
  });

  it('refuses a 50 MB manifest before parsing it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cm-big-'));
    const file = join(dir, 'citus-migrate.yaml');
    writeFileSync(
      file,
      `version: 1\ntables:\n${Array.from({ length: 700_000 }, (_, i) => `  t${i}: { local: true, columns: { a: integer } }`).join('\n')}\n`,
    );
    const r = await cli(['plan', '--offline', '-f', file]);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/is \d{8} bytes; a manifest may be at most 4194304 bytes/);
    expect(r.stderr).not.toMatch(STACK_FRAME);
  });
});
