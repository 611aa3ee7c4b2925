// When the server counts a batch's statements otherwise than they were sent (a text the scan took
// for one statement was not: batch.ts's guard), apply trusts none of its replies: it rolls back,
// says so, and runs the transaction again one statement per message. The scan agrees with
// PostgreSQL's parser (unit/batch.test.ts), so the mismatch is made here by a stand-in runBatch
// that reports one on the first batch of several statements, after really running it.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { freshDatabase, plainServers } from '../support/db.js';
import { cli } from '../support/run-cli.js';

const calls: number[] = [];
vi.mock('../../src/apply/batch.js', async (original) => {
  const real = await original<typeof import('../../src/apply/batch.js')>();
  let tripped = false;
  return {
    ...real,
    runBatch: async (...args: Parameters<typeof real.runBatch>) => {
      calls.push(args[1].length);
      await real.runBatch(...args);
      if (!tripped && args[1].length > 1) {
        tripped = true;
        throw new real.BatchMismatch(args[1].length, args[1].length + 1);
      }
    },
  };
});

describe('a batch the server counted otherwise (plain PostgreSQL)', () => {
  it('rolls back, says so, and applies the transaction again one statement per message', async () => {
    const db = await freshDatabase(plainServers(), 'mismatch');
    const cwd = mkdtempSync(join(tmpdir(), 'cm-mismatch-'));
    writeFileSync(
      join(cwd, 'citus-migrate.yaml'),
      'version: 1\ntables:\n  a:\n    local: true\n    columns: { id: { type: bigint, not_null: true } }\n    primary_key: [id]\n  b:\n    local: true\n    columns: { id: bigint }\n',
    );
    const r = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd });
    const said =
      /the server ran (\d+) statements of a batch of (\d+); rolled back, running the transaction again one statement at a time/.exec(
        r.stderr,
      );
    expect(said, r.stderr).not.toBeNull();
    expect(Number(said![1])).toBe(Number(said![2]) + 1);
    expect(r.code, r.stderr).toBe(0);
    // The first batch (the preamble's pinned settings and the two tables), then one at a time.
    expect(calls[0]).toBeGreaterThan(1);
    expect(calls.slice(1).every((n) => n === 1)).toBe(true);
    expect(
      await db.query("SELECT count(*)::int AS n FROM pg_class WHERE relname IN ('a', 'b') AND relkind = 'r'"),
    ).toEqual([{ n: 2 }]);
    const again = await cli(['plan', '--database', db.url], { cwd });
    expect(again.stdout).toContain('No changes');
  });
});
