// apply's heartbeat against a real PostgreSQL: while one step runs long (here it waits ~7 s on a
// lock another session holds, as a long copy would run), stderr hears from it at least every
// 2 s, at the default timing. Counted against the time the step was seen running, never a fixed
// time: the machine may be busy.
import pg from 'pg';
import { beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli-program.js';
import { freshDatabase, plainServers, type TestDb } from '../support/db.js';
import { ACCOUNTS_MANIFEST, projectDir } from '../support/project.js';

const WAIT_MS = 7_000;

describe('apply heartbeat (plain PostgreSQL)', () => {
  let db: TestDb;
  beforeEach(async () => {
    db = await freshDatabase(plainServers(), 'hbeat');
  });

  it('beats at least every 2 s while a step waits, on one line a minute, without a terminal', async () => {
    await db.query('CREATE TABLE accounts (id bigint NOT NULL PRIMARY KEY)');
    const holder = new pg.Client({ connectionString: db.url });
    await holder.connect();
    await holder.query('BEGIN; LOCK TABLE accounts IN ACCESS EXCLUSIVE MODE');
    const chunks: string[] = [];
    let stepSeen: number | undefined;
    let released: number | undefined;
    let release: NodeJS.Timeout | undefined;
    try {
      const code = await runCli(['apply', '--database', db.url, '--auto-approve', '--lock-timeout', '60s'], {
        stdout: () => undefined,
        stderr: (t) => {
          chunks.push(t);
          if (stepSeen === undefined && t.startsWith('  [1/1] ')) {
            stepSeen = performance.now();
            release = setTimeout(() => {
              released = performance.now();
              void holder.query('COMMIT');
            }, WAIT_MS);
          }
        },
        env: {},
        isTTY: false,
        cwd: projectDir(ACCOUNTS_MANIFEST, 'cm-hbeat-'),
      });
      expect(code).toBe(0);
      expect(stepSeen).toBeDefined();
      expect(released).toBeDefined();
      // What the step wrote between its line and the lock's release: its beats (and no newline
      // but the one that closes the heartbeat line).
      const after = chunks.slice(chunks.findIndex((c) => c.startsWith('  [1/1] ')) + 1);
      const beats = after.filter((c) => c.startsWith('  … still running') || /^ (\.|\d+s)\n?$/.test(c));
      const seen = released! - stepSeen!;
      expect(beats.length).toBeGreaterThanOrEqual(Math.max(2, Math.floor(seen / 2_500)));
      const text = chunks.join('');
      const lines = text.split('\n').filter((l) => l.startsWith('  … still running'));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        /^ {2}… still running step 1\/1 \(add column name text to public\.accounts\), [23]s( \.){0,3}( \d+s)?( \.)*$/,
      );
      // The heartbeat line ends with the step (the result goes to stdout).
      expect(text).toMatch(/\n {2}… still running step 1\/1 [^\n]*\n$/);
    } finally {
      clearTimeout(release);
      await holder.end();
    }
  }, 120_000);
});
