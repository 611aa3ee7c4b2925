// No lost writes: a table holding rows is distributed by `apply` while clients keep writing to it
// through the coordinator. Every write a client saw commit is there afterwards (count and
// checksum against the clients' own log), reads of their own writes never return wrong values,
// and the clients saw only lock waits or clean errors. 200k rows in CI; 1M with
// CITUS_MIGRATE_LONG_TESTS=1.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { citusServers, freshDatabase } from '../support/db.js';
import { startCli } from '../support/cli-process.js';

const citus = citusServers();
const ROWS = process.env.CITUS_MIGRATE_LONG_TESTS ? 1_000_000 : 200_000;
const CLIENTS = 4;

describe.skipIf(!citus)('no lost writes while distributing', () => {
  it(`distributes ${ROWS} rows under a concurrent write load without losing a committed write`, async () => {
    const db = await freshDatabase(citus!, 'nolost');
    await db.query(`CREATE TABLE events (id bigint PRIMARY KEY, v bigint NOT NULL);
      INSERT INTO events SELECT g, g * 7 FROM generate_series(1, ${ROWS}) g`);
    const dir = mkdtempSync(join(tmpdir(), 'cm-nolost-'));
    writeFileSync(
      join(dir, 'citus-migrate.yaml'),
      'version: 1\ntables:\n  events: { distributed_by: id, shard_count: 8 }\n',
    );

    let running = true;
    const logs: bigint[][] = Array.from({ length: CLIENTS }, () => []);
    const errors: Record<string, number> = {};
    let wrongReads = 0;
    const load = Array.from({ length: CLIENTS }, async (_, c) => {
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      let next = BigInt(10_000_000 + c * 1_000_000);
      try {
        while (running) {
          const id = next++;
          try {
            await client.query('INSERT INTO events (id, v) VALUES ($1, $2)', [id.toString(), (id * 7n).toString()]);
            logs[c]!.push(id);
            if (logs[c]!.length % 50 === 0) {
              const r = await client.query<{ v: string }>('SELECT v FROM events WHERE id = $1', [id.toString()]);
              if (r.rows.length !== 1 || BigInt(r.rows[0]!.v) !== id * 7n) wrongReads++;
            }
          } catch (e) {
            const code = (e as { code?: string }).code ?? 'client';
            errors[code] = (errors[code] ?? 0) + 1;
          }
        }
      } finally {
        await client.end();
      }
    });
    await new Promise((r) => setTimeout(r, 500));
    const apply = await startCli(
      ['apply', '--database', db.url, '--auto-approve', '--allow-hazards', 'copies_data', '--lock-timeout', '60s'],
      { cwd: dir },
    ).done;
    await new Promise((r) => setTimeout(r, 500));
    running = false;
    await Promise.all(load);

    expect(apply.stderr).not.toMatch(/error/i);
    expect(apply.code).toBe(0);
    const written = logs.flat();
    expect(written.length).toBeGreaterThan(100);
    expect(wrongReads).toBe(0);
    // Only lock-related or cancellation errors would be acceptable; none is expected.
    expect(Object.keys(errors).filter((k) => !['55P03', '40P01', '57014'].includes(k))).toEqual([]);

    const [dist] = await db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_dist_partition WHERE logicalrelid = 'events'::regclass",
    );
    expect(dist!.n).toBe(1);
    const expectedSum = (BigInt(ROWS) * BigInt(ROWS + 1)) / 2n + written.reduce((s, x) => s + x, 0n);
    const [got] = await db.query<{ n: string; s: string; vs: string }>(
      'SELECT count(*)::text AS n, sum(id)::text AS s, sum(v - id * 7)::text AS vs FROM events',
    );
    expect({ n: BigInt(got!.n), s: BigInt(got!.s), vs: got!.vs }).toEqual({
      n: BigInt(ROWS + written.length),
      s: expectedSum,
      vs: '0',
    });
    // Every logged id is there (not just the totals).
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    try {
      // ids are unique, so finding as many rows as logged ids means every one is there.
      const found = await c.query<{ n: number }>('SELECT count(*)::int AS n FROM events WHERE id = ANY($1::bigint[])', [
        written.map(String),
      ]);
      expect(found.rows[0]!.n).toBe(written.length);
    } finally {
      await c.end();
    }
    console.log(
      `no-lost-writes: ${ROWS} rows distributed while ${CLIENTS} clients committed ${written.length} inserts; errors ${JSON.stringify(errors)}; all present`,
    );
  });
});
