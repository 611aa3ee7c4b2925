// apply's safety valves on a real Citus cluster, with the obstacle on a worker: a lock held on one
// shard by a session connected to the worker that has it. --lock-timeout and --statement-timeout
// reach the workers (citus.propagate_set_commands = 'local' in the preamble), the failure names
// the session holding the shard's lock, Ctrl-C cancels the distributed statement (its parts on the
// workers too) and says "rolled back" only once the server shows it, and a deadlock is retried like a lock timeout.
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { citusServers, freshDatabase, pollCount, type TestDb } from '../support/db.js';
import { startCli } from '../support/cli-process.js';
import { projectDir } from '../support/project.js';
import { cli } from '../support/run-cli.js';

const citus = citusServers();

const manifest = (columns: string): string => `version: 1
tables:
  orders: { distributed_by: w, shard_count: 4, columns: { ${columns} }, primary_key: [w, id] }
`;
const BEFORE = 'w: bigint, id: bigint, v: text';
const AFTER = `${BEFORE}, note: text`;

/** A distributed table, and a session on the worker of its first shard holding that shard locked. */
async function lockedShard(prefix: string): Promise<{ db: TestDb; holder: pg.Client; shard: string; node: string }> {
  const db = await freshDatabase(citus!, prefix);
  await db.query(`CREATE TABLE orders (w bigint NOT NULL, id bigint NOT NULL, v text, PRIMARY KEY (w, id));
    SELECT create_distributed_table('orders', 'w', shard_count => 4);
    INSERT INTO orders SELECT g % 10, g, 'x' FROM generate_series(1, 100) g`);
  const [first] = await db.query<{ shard: string; host: string; port: number }>(
    "SELECT shard_name::text AS shard, nodename AS host, nodeport AS port FROM citus_shards WHERE table_name = 'orders'::regclass ORDER BY shardid LIMIT 1",
  );
  const { shard, host, port } = first!;
  const node = citus!.nodes.findIndex((n) => (n.registerAs ?? n).port === port);
  const at = citus!.nodes[node]!;
  const holder = new pg.Client({
    host: at.host,
    port: at.port,
    user: citus!.user,
    ...(citus!.password ? { password: citus!.password } : {}),
    database: db.name,
  });
  await holder.connect();
  await holder.query(
    `SET citus.enable_manual_changes_to_shards = on; BEGIN; LOCK TABLE ${shard} IN ACCESS EXCLUSIVE MODE`,
  );
  return { db, holder, shard, node: `${host}:${port}` };
}

/** SQL counting, on the worker, sessions waiting for a lock on the shard. */
const waitingOn = (shard: string): string =>
  `SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted AND relation = to_regclass('${shard}')`;

describe.skipIf(!citus)('apply valves on Citus, the obstacle on a worker', () => {
  it('--lock-timeout reaches the worker: the apply ends while the shard is still locked, names the session holding it, and changed nothing', async () => {
    const { db, holder, shard, node } = await lockedShard('valve_lock');
    const dir = projectDir(manifest(AFTER));
    try {
      const r = await cli(['apply', '--database', db.url, '--auto-approve', '--lock-timeout', '1s', '--retries', '1'], {
        cwd: dir,
      });
      // Ended while the holder still holds the shard: the timeout fired on the worker.
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toMatch(
        /lock_timeout at step 1 \(.*\); rolled back, retrying once the sessions that held its tables end their transactions \(at most 15s; attempt 2 of 2\)/,
      );
      // It waited for the holder, holding no lock, then tried once more (the holder still there).
      expect(r.stderr).toMatch(
        new RegExp(
          `waiting, holding no lock, for these transactions to end before retrying:\\n {2}backend \\d+ on ${node} `,
        ),
      );
      expect(r.stderr).toContain('canceling statement due to lock timeout');
      expect(r.stderr).toContain("locks on the step's tables were held by:");
      expect(r.stderr).toMatch(new RegExp(`backend \\d+ on ${node} \\(role \\w+, .*AccessExclusiveLock on ${shard}`));
      expect(await db.query("SELECT count(*)::int AS n FROM pg_attribute WHERE attname = 'note'")).toEqual([{ n: 0 }]);
    } finally {
      await holder.query('ROLLBACK');
      await holder.end();
    }
    const again = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: dir });
    expect(again.code, again.stderr).toBe(0);
  });

  it('--statement-timeout reaches the worker (no lock timeout): the shard lock wait is cancelled there', async () => {
    const { db, holder } = await lockedShard('valve_stmt');
    try {
      const r = await cli(
        [
          'apply',
          '--database',
          db.url,
          '--auto-approve',
          '--lock-timeout',
          '10m',
          '--statement-timeout',
          '1s',
          '--retries',
          '0',
        ],
        { cwd: projectDir(manifest(AFTER)) },
      );
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toContain('canceling statement due to statement timeout');
    } finally {
      await holder.query('ROLLBACK');
      await holder.end();
    }
  });

  it('SIGINT while the step waits on a worker: the worker part is cancelled, "rolled back" once the server shows it, exit 130', async () => {
    const { db, holder, shard } = await lockedShard('valve_int');
    try {
      const { child, done } = startCli(['apply', '--database', db.url, '--auto-approve', '--lock-timeout', '60s'], {
        cwd: projectDir(manifest(AFTER)),
      });
      // The apply's part on the worker waits for the shard's lock.
      let waiting = false;
      for (let i = 0; i < 150 && !waiting; i++) {
        for (let n = 1; n < citus!.nodes.length && !waiting; n++)
          waiting = (await db.query<{ n: number }>(waitingOn(shard), n))[0]!.n > 0;
        if (!waiting) await new Promise((r) => setTimeout(r, 100));
      }
      expect(waiting).toBe(true);
      child.kill('SIGINT');
      const res = await done;
      expect([res.code, res.signal], res.stderr).toEqual([130, null]);
      expect(res.stderr).toContain('error: interrupted, rolled back (SIGINT): nothing was changed\n');
      // The shard is still locked: nothing of the apply waits for it on any worker.
      for (let n = 1; n < citus!.nodes.length; n++)
        expect((await db.query<{ n: number }>(waitingOn(shard), n))[0]!.n).toBe(0);
      expect(await db.query("SELECT outcome, error->>'message' AS message FROM citus_migrate.applies")).toEqual([
        { outcome: 'aborted', message: 'interrupted, rolled back (SIGINT): nothing was changed' },
      ]);
    } finally {
      await holder.query('ROLLBACK');
      await holder.end();
    }
  });

  it('while a step waits on a worker the heartbeat beats; a lock timeout there is retried until the shard is free', async () => {
    const { db, holder, shard } = await lockedShard('valve_beat');
    const dir = projectDir(manifest(AFTER));
    try {
      const { done } = startCli(['apply', '--database', db.url, '--auto-approve', '--lock-timeout', '60s'], {
        cwd: dir,
      });
      let waiting = false;
      for (let i = 0; i < 150 && !waiting; i++) {
        for (let n = 1; n < citus!.nodes.length && !waiting; n++)
          waiting = (await db.query<{ n: number }>(waitingOn(shard), n))[0]!.n > 0;
        if (!waiting) await new Promise((r) => setTimeout(r, 100));
      }
      expect(waiting).toBe(true);
      await new Promise((r) => setTimeout(r, 5000));
      await holder.query('COMMIT');
      const r = await done;
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/\n {2}… still running step 1\/1 \(add column note text to public\.orders\), [23]s/);
    } finally {
      await holder.query('ROLLBACK').catch(() => undefined);
    }
    // Locked again; released 4.5 s into an apply whose lock timeout is 1 s: the retry waits for the
    // holder's transaction to end, holding no lock, and goes through at once. One lock timeout only:
    // retried on a timer (after 1 s, then 2 s), the second attempt queued again and timed out too,
    // stalling the writers behind it a second time.
    await holder.query(`BEGIN; LOCK TABLE ${shard} IN ACCESS EXCLUSIVE MODE`);
    try {
      const t0 = Date.now();
      const applying = cli(
        ['apply', '--database', db.url, '--auto-approve', '--lock-timeout', '1s', '--retries', '6'],
        { cwd: projectDir(manifest(`${AFTER}, more: text`)) },
      );
      await new Promise((r) => setTimeout(r, 4500));
      await holder.query('COMMIT');
      const r = await applying;
      expect(r.stderr).toMatch(
        /lock_timeout at step 1 \(.*\); rolled back, retrying once the sessions that held its tables end their transactions \(at most 15s; attempt 2 of 7\)/,
      );
      expect(r.stderr.match(/lock_timeout at step/g)).toHaveLength(1);
      expect(r.code, r.stderr).toBe(0);
      expect(Date.now() - t0).toBeLessThan(12_000);
      expect(
        await db.query(
          "SELECT count(*)::int AS n FROM pg_attribute WHERE attname = 'more' AND attrelid = 'orders'::regclass",
        ),
      ).toEqual([{ n: 1 }]);
    } finally {
      await holder.end();
    }
  });

  it('a deadlock is rolled back and retried like a lock timeout', async () => {
    const db = await freshDatabase(citus!, 'valve_deadlock');
    // Tables of the coordinator's own: the apply's transaction first locks the tables it changes,
    // in name order (read-guard.ts), so it holds a and waits for b.
    await db.query(`CREATE TABLE a (w bigint NOT NULL, id bigint NOT NULL, PRIMARY KEY (w, id));
      CREATE TABLE b (w bigint NOT NULL, id bigint NOT NULL, PRIMARY KEY (w, id))`);
    // The apply checks for a deadlock 3s into a wait, the other session never: the apply is the
    // one PostgreSQL cancels when the other closes the cycle.
    await db.query(`ALTER DATABASE ${db.name} SET deadlock_timeout = '3s'`);
    const dir = projectDir(`version: 1
tables:
  a: { local: true, columns: { w: bigint, id: bigint, x: text }, primary_key: [w, id] }
  b: { local: true, columns: { w: bigint, id: bigint, x: text }, primary_key: [w, id] }
`);
    const other = new pg.Client({ connectionString: db.url });
    await other.connect();
    try {
      await other.query("SET deadlock_timeout = '10min'; BEGIN; LOCK TABLE b IN ACCESS EXCLUSIVE MODE");
      const { done: applying } = startCli(['apply', '--database', db.url, '--auto-approve', '--lock-timeout', '60s'], {
        cwd: dir,
      });
      // The apply holds a and waits for b; the other session then asks for a.
      const waits = `SELECT count(*)::int AS n FROM pg_locks l JOIN pg_stat_activity s USING (pid)
        WHERE NOT l.granted AND l.relation = 'b'::regclass AND s.application_name = 'citus-migrate'`;
      expect(await pollCount(db, waits, (n) => n > 0, 150)).toBe(true);
      const closing = other.query('LOCK TABLE a IN ACCESS EXCLUSIVE MODE');
      await closing;
      await other.query('COMMIT');
      const r = await applying;
      // Retried at once when the other session is seen to end its transaction, else after 1 s.
      expect(r.stderr).toMatch(
        /deadlock at step \d+ \(.*\); rolled back, retrying (in 1s \(|once the sessions that held its tables end their transactions \(at most 15s; )attempt 2 of 4\)/,
      );
      expect(r.code, r.stderr).toBe(0);
    } finally {
      await other.end();
    }
  });
});
