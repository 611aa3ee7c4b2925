#!/usr/bin/env node
// Disruption: what an application writing through the coordinator feels while a change is applied.
// A local coordinator + 2 workers; per run a fresh database with `orders` (ROWS rows, distributed
// by tenant_id over 32 shards), `items` (a reference table), `audit` (a local table holding rows)
// and a function price_of(). pgbench writes at a fixed rate (--rate, CLIENTS clients) and logs each
// transaction's latency, measured from its scheduled start, so a stall counts for every
// transaction that queued behind it: INSERT into orders and audit, an UPDATE of a row orders
// held before the change (a fill must not refuse it), and SELECT price_of().
// Each change class is applied three ways, each on a fresh database: `citus-migrate apply` in its
// default mode, in its online mode (`online: true` on the tables), and the same DDL typed into
// psql by hand. With LOCK=1 (the default) each is run once more while a session on the first
// worker holds a lock (LOCK_MODE) on one of the table's shards (apply --lock-timeout 2s; psql with
// lock_timeout 2s sent to the workers by citus.propagate_set_commands = 'local').
// Prints per run: the outcome and time of the apply, and of the transactions that completed
// between the apply's start and 1 s after its end: max and p99 latency, how many took over 1 s,
// how many failed. Figures, not assertions: the machine is shared.
// Usage: npm run perf:disruption  (ROWS=2000000 CLIENTS=4 RATE=200 CASES=add_column,… MODES=default,online,psql
//   LOCK=1|0|only LOCK_MODE='ROW EXCLUSIVE' CLUSTER_DIR=<cluster up's folder>)
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { findPgInstall } from '../dist/cluster/local.js';
import { benchCluster } from './lib/bench-cluster.mjs';
import { createClusterDatabase } from '../dist/cluster/database.js';

const ROWS = Number(process.env.ROWS ?? 2_000_000);
const CLIENTS = Number(process.env.CLIENTS ?? 4);
const RATE = Number(process.env.RATE ?? 200);
// LOCK=0: without the lock; LOCK=only: only with it. LOCK_MODE: what the session on the worker
// holds: ROW EXCLUSIVE (a transaction that wrote there: blocks CREATE INDEX, foreign keys and
// every ALTER TABLE) or ACCESS SHARE (one that read: blocks ACCESS EXCLUSIVE only).
const LOCK = process.env.LOCK ?? '1';
const LOCK_MODE = process.env.LOCK_MODE ?? 'ROW EXCLUSIVE';
const HOLD_MS = Number(process.env.HOLD_MS ?? 30_000);
const SETTLE_MS = 1000;
const cli = new URL('../dist/cli.js', import.meta.url).pathname;
const pgBin = findPgInstall()?.bin;
const log = (s) => process.stderr.write(`${s}\n`);

const PRICE = (body) => `CREATE FUNCTION price_of(k integer) RETURNS numeric
LANGUAGE sql STABLE
AS $$ ${body} $$;
`;
const PRICE_BASE = 'SELECT price FROM items WHERE id = k';
const PRICE_NEW = 'SELECT price * 1.0 FROM items WHERE id = k';

/** The manifest: the base, changed by `c` (its keys below), tables `online` or not. */
function manifest(c, online) {
  const on = online ? '\n    online: true' : '';
  // c.columns: a column's new spec, or null when the manifest no longer declares it.
  const col = (name, spec) => (c.columns?.[name] === null ? '' : `\n      ${name}: ${c.columns?.[name] ?? spec}`);
  return `version: 1
colocation:
  tenants: { shard_count: ${c.shardCount ?? 32}, anchor: orders }
tables:
  items:
    reference: true
    columns:
      id: { type: integer, not_null: true }
      price: "numeric(10,2)"
    primary_key: [id]
  orders:
    distributed_by: tenant_id
    colocation: tenants${on}
    columns:${col('tenant_id', '{ type: bigint, not_null: true }')}${col('id', '{ type: bigint, not_null: true }')}${col('item_id', 'integer')}${col('qty', 'integer')}${col('note', 'text')}${Object.entries(
      c.add ?? {},
    )
      .map(([k, v]) => `\n      ${k}: ${v}`)
      .join('')}
    primary_key: [tenant_id, id]${c.ordersExtra ?? ''}
  audit:${on}${c.audit ?? ''}
    columns:
      tenant_id: { type: bigint, not_null: true }
      at: timestamptz
routines:
  price_of: { file: price_of.sql }
${c.sql ? 'sql: [change.sql]\n' : ''}${c.prune ? 'prune: true\n' : ''}`;
}

/** The change classes: how the manifest changes, and what a person would type into psql. */
const CASES = [
  {
    name: 'add_column',
    done: "EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = 'orders'::regclass AND attname = 'extra' AND NOT attisdropped)",
    add: { extra: 'text' },
    psql: 'ALTER TABLE orders ADD COLUMN extra text',
  },
  {
    name: 'constant_default',
    done: "EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = 'orders'::regclass AND attname = 'status' AND NOT attisdropped)",
    add: { status: `{ type: text, default: "'new'" }` },
    psql: "ALTER TABLE orders ADD COLUMN status text DEFAULT 'new'",
  },
  {
    name: 'volatile_default',
    done: "EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = 'orders'::regclass AND attname = 'ref' AND NOT attisdropped) AND NOT EXISTS (SELECT 1 FROM orders WHERE ref IS NULL)",
    add: { ref: '{ type: uuid, default: gen_random_uuid() }' },
    psql: 'ALTER TABLE orders ADD COLUMN ref uuid DEFAULT gen_random_uuid()',
  },
  {
    name: 'manifest_index',
    done: "(SELECT count(*) = 2 FROM pg_index WHERE indrelid = 'orders'::regclass)",
    ordersExtra: '\n    indexes:\n      - { columns: [item_id] }',
    psql: 'CREATE INDEX ON orders (item_id)',
  },
  {
    name: 'sql_partial_index',
    done: "to_regclass('orders_big_qty') IS NOT NULL",
    sql: 'CREATE INDEX orders_big_qty ON orders (qty) WHERE qty > 100;\n',
    psql: 'CREATE INDEX orders_big_qty ON orders (qty) WHERE qty > 100',
  },
  {
    name: 'foreign_key',
    done: "EXISTS (SELECT 1 FROM pg_constraint WHERE conrelid = 'orders'::regclass AND contype = 'f' AND convalidated)",
    ordersExtra: '\n    foreign_keys:\n      - { columns: [item_id], references: items, ref_columns: [id] }',
    psql: 'ALTER TABLE orders ADD FOREIGN KEY (item_id) REFERENCES items (id)',
  },
  {
    name: 'check',
    done: "EXISTS (SELECT 1 FROM pg_constraint WHERE conname = 'orders_qty_check' AND convalidated)",
    sql: 'ALTER TABLE orders ADD CONSTRAINT orders_qty_check CHECK (qty >= 0);\n',
    psql: 'ALTER TABLE orders ADD CONSTRAINT orders_qty_check CHECK (qty >= 0)',
  },
  {
    name: 'type_change',
    done: "(SELECT atttypid = 'bigint'::regtype FROM pg_attribute WHERE attrelid = 'orders'::regclass AND attname = 'qty')",
    columns: { qty: 'bigint' },
    psql: 'ALTER TABLE orders ALTER COLUMN qty TYPE bigint',
  },
  {
    name: 'shard_count',
    done: "(SELECT count(*) = 64 FROM pg_dist_shard WHERE logicalrelid = 'orders'::regclass)",
    shardCount: 64,
    psql: "SELECT alter_distributed_table('orders', shard_count := 64, cascade_to_colocated := true)",
  },
  {
    name: 'distribute',
    done: "EXISTS (SELECT 1 FROM pg_dist_partition WHERE logicalrelid = 'audit'::regclass AND partmethod = 'h')",
    audit: '\n    distributed_by: tenant_id\n    colocation: tenants',
    lockOn: 'orders',
    psql: "SELECT create_distributed_table('audit', 'tenant_id', colocate_with := 'orders')",
  },
  // A column the manifest stops declaring is left alone unless prune.
  {
    name: 'drop_column',
    done: "NOT EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = 'orders'::regclass AND attname = 'note' AND NOT attisdropped)",
    columns: { note: null },
    prune: true,
    psql: 'ALTER TABLE orders DROP COLUMN note',
  },
  {
    name: 'routine',
    done: "pg_get_functiondef('price_of'::regproc) LIKE '%price * 1.0%'",
    price: PRICE_NEW,
    psql: `CREATE OR REPLACE FUNCTION price_of(k integer) RETURNS numeric LANGUAGE sql STABLE AS $$ ${PRICE_NEW} $$`,
  },
];

const WORKLOAD = `\\set t random(1, 1000)
\\set i random(10000000000, 20000000000)
\\set k random(1, 1000)
\\set g random(1, ${ROWS})
\\set gt :g % 1000
BEGIN;
INSERT INTO orders (tenant_id, id, item_id, qty) VALUES (:t, :i, :k, 1);
UPDATE orders SET qty = qty + 1 WHERE tenant_id = :gt AND id = :g;
INSERT INTO audit (tenant_id, at) VALUES (:t, now());
SELECT price_of(:k);
END;
`;

function spawnCollect(cmd, args, opts = {}) {
  return new Promise((resolve) => {
    const p = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], ...opts });
    let out = '';
    let err = '';
    // When each step began: apply prints "  [i/n] summary" on stderr as it starts one.
    const steps = [];
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => {
      for (const m of String(d).matchAll(/^ +\[(\d+)\/\d+\] (.*)$/gm))
        steps.push({ at: Date.now(), step: `${m[1]}. ${m[2]}` });
      err += d;
    });
    p.on('close', (code) => resolve({ code, out, err, steps }));
  });
}

/** A fresh database at the base manifest, loaded; returns its URL and the manifest's folder. */
async function prepare(cluster, name) {
  await dropEverywhere(cluster, name);
  const url = await createClusterDatabase(cluster, name);
  const dir = mkdtempSync(join(tmpdir(), `disruption-${name}-`));
  writeFileSync(join(dir, 'price_of.sql'), PRICE(PRICE_BASE));
  writeFileSync(join(dir, 'citus-migrate.yaml'), manifest({}, false));
  const r = await spawnCollect(process.execPath, [cli, 'apply', '--database', url, '--auto-approve'], { cwd: dir });
  if (r.code !== 0) throw new Error(`base apply exited ${r.code}: ${r.err}`);
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  await c.query('INSERT INTO items SELECT g, g * 0.5 FROM generate_series(1, 1000) g');
  await c.query(
    `INSERT INTO orders SELECT g % 1000, g, g % 1000 + 1, g % 200, md5(g::text) FROM generate_series(1, ${ROWS}) g`,
  );
  await c.query(`INSERT INTO audit SELECT g % 1000, now() FROM generate_series(1, ${Math.ceil(ROWS / 10)}) g`);
  await c.query('VACUUM ANALYZE orders');
  await c.query('VACUUM ANALYZE audit');
  return { url, dir, client: c };
}

/** pgbench at RATE tx/s from now until stop(); stop() resolves to its transactions and aborts. */
function startWorkload(url, dir) {
  const logDir = join(dir, 'pgbench-log');
  mkdirSync(logDir);
  writeFileSync(join(dir, 'workload.sql'), WORKLOAD);
  const p = spawn(
    join(pgBin, 'pgbench'),
    [
      '-n',
      '-c',
      String(CLIENTS),
      '-j',
      '2',
      '-R',
      String(RATE),
      '-T',
      '3600',
      '-l',
      '--log-prefix',
      join(logDir, 'tx'),
      '-f',
      join(dir, 'workload.sql'),
      url,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let err = '';
  p.stderr.on('data', (d) => (err += d));
  const closed = new Promise((r) => p.on('close', r));
  // A bench that fails leaves no pgbench writing behind it.
  const orphan = () => p.kill('SIGTERM');
  process.once('exit', orphan);
  return {
    stop: async () => {
      process.off('exit', orphan);
      p.kill('SIGTERM');
      await closed;
      const tx = [];
      for (const f of readdirSync(logDir)) {
        for (const line of readFileSync(join(logDir, f), 'utf8').split('\n')) {
          // client_id transaction_no time script_no time_epoch time_us [schedule_lag]
          const [, , time, , epoch, us] = line.split(' ');
          if (us === undefined) continue;
          const end = Number(epoch) * 1000 + Number(us) / 1000;
          tx.push({ end, ms: time === 'failed' ? NaN : Number(time) / 1000, failed: time === 'failed' });
        }
      }
      const aborted = (err.match(/aborted/g) ?? []).length;
      return { tx, aborted, err };
    },
  };
}

/** A session on the first worker holding LOCK_MODE on one of `table`'s shards there. */
async function holdShardLock(cluster, url, table) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  const w = cluster.workers[0];
  const { rows } = await c.query(
    `SELECT shard_name(logicalrelid, shardid) AS shard FROM pg_dist_shard JOIN pg_dist_placement USING (shardid)
       JOIN pg_dist_node USING (groupid) WHERE logicalrelid = $1::regclass AND nodeport = $2 ORDER BY shardid LIMIT 1`,
    [table, w.port],
  );
  await c.end();
  const u = new URL(url);
  u.port = String(w.port);
  const holder = new pg.Client({ connectionString: u.toString() });
  await holder.connect();
  holder.on('error', (e) => log(`lock holder on ${w.name}: ${e.message}`));
  await holder.query('BEGIN');
  await holder.query('SET LOCAL citus.enable_manual_changes_to_shards = on');
  await holder.query(`LOCK TABLE ${rows[0].shard} IN ${LOCK_MODE} MODE`);
  // Released when the apply ends, or after HOLD_MS (a batch job ends some time): an apply that
  // waits without a bound (CREATE INDEX CONCURRENTLY waits for older transactions) then goes on.
  let released;
  const release = () => (released ??= holder.query('ROLLBACK').then(() => holder.end()));
  const timer = setTimeout(release, HOLD_MS);
  return { shard: rows[0].shard, release: () => (clearTimeout(timer), release()) };
}

/** Drops the run's database on every node. */
async function dropEverywhere(cluster, name) {
  for (const node of [cluster.coordinator, ...cluster.workers]) {
    const u = new URL(cluster.url('postgres'));
    u.port = String(node.port);
    const c = new pg.Client({ connectionString: u.toString() });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await c.end();
  }
}

async function applyOnce(c, mode, lock, url, dir, now) {
  if (mode === 'psql') {
    const sql = lock
      ? `SET citus.propagate_set_commands = 'local';\nBEGIN;\nSET LOCAL lock_timeout = '2s';\n${c.psql};\nCOMMIT`
      : c.psql;
    // A file, as a person's script: psql sends its statements one by one (-c would send them as one string).
    writeFileSync(join(dir, 'by-hand.sql'), `${sql};\n`);
    const psql = await spawnCollect(join(pgBin, 'psql'), [
      '-X',
      '-q',
      '-v',
      'ON_ERROR_STOP=1',
      '-d',
      url,
      '-f',
      join(dir, 'by-hand.sql'),
    ]);
    return { ...psql, started: now };
  }
  writeFileSync(join(dir, 'citus-migrate.yaml'), manifest(c, mode === 'online'));
  if (c.sql) writeFileSync(join(dir, 'change.sql'), c.sql);
  if (c.price) writeFileSync(join(dir, 'price_of.sql'), PRICE(c.price));
  // The plan's estimates first (lock-estimate.ts): what it says the steps will hold, and how long.
  const planned = await spawnCollect(process.execPath, [cli, 'plan', '--database', url, '--format', 'json'], {
    cwd: dir,
  });
  const args = [cli, 'apply', '--database', url, '--auto-approve', '--allow-hazards', 'all'];
  if (lock) args.push('--lock-timeout', '2s');
  // The apply's time starts here: the plan above is not part of it.
  const started = Date.now();
  return { ...(await spawnCollect(process.execPath, args, { cwd: dir })), estimate: estimates(planned.out), started };
}

/** From a plan's JSON: the estimated ms of the steps that block writes, and of all that have an estimate. */
function estimates(json) {
  try {
    const doc = JSON.parse(json);
    const steps = [...(doc.transaction?.steps ?? []), ...(doc.afterCommit ?? [])].filter(
      (s) => s.lock?.estimateMs !== undefined,
    );
    const sum = (xs) => xs.reduce((a, s) => a + s.lock.estimateMs, 0);
    return { blocking: sum(steps.filter((s) => s.lock.blocks !== 'nothing')), total: sum(steps) };
  } catch {
    return undefined;
  }
}

const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))] ?? 0;

async function measure(cluster, c, mode, lock, n) {
  const { url, dir, client } = await prepare(cluster, `disruption_${n}`);
  const work = startWorkload(url, dir);
  await new Promise((r) => setTimeout(r, 2000));
  const held = lock ? await holdShardLock(cluster, url, c.lockOn ?? 'orders') : undefined;
  const r = await applyOnce(c, mode, lock, url, dir, Date.now());
  const t0 = r.started;
  const t1 = Date.now();
  await held?.release();
  // Whether the change is there (an apply that planned nothing would look harmless).
  // (A failed apply may leave a column the check names missing: not changed.)
  const done = await client.query(`SELECT (${c.done}) AS done`).then(
    (q) => q.rows[0].done === true,
    () => false,
  );
  await new Promise((res) => setTimeout(res, SETTLE_MS + 2500));
  const { tx, aborted } = await work.stop();
  await client.end();
  rmSync(dir, { recursive: true, force: true });
  await dropEverywhere(cluster, `disruption_${n}`);
  const during = tx.filter((t) => t.end >= t0 && t.end <= t1 + SETTLE_MS);
  const ms = during.filter((t) => !t.failed).map((t) => t.ms);
  // The slowest transaction was scheduled while this step ran (its latency counts from then).
  const worst = during.filter((t) => !t.failed).reduce((a, b) => (b.ms > (a?.ms ?? -1) ? b : a), undefined);
  const scheduled = worst ? worst.end - worst.ms : 0;
  const stepAt = (r.steps ?? []).filter((x) => x.at <= scheduled).at(-1)?.step;
  const quiet = tx.filter((t) => t.end < t0 && !t.failed).map((t) => t.ms);
  // (A step's summary may say "refused" too: the line apply starts with error: first.)
  const firstLine = (s) =>
    s.split('\n').find((l) => /^error:/i.test(l)) ??
    s.split('\n').find((l) => /error|refus|problem/i.test(l)) ??
    s.split('\n')[0];
  // APPLY_LOG=file: the apply's stderr (its steps, retries and error), for a run to look into.
  if (process.env.APPLY_LOG) writeFileSync(process.env.APPLY_LOG, r.err || r.out);
  return {
    case: c.name,
    mode,
    lock,
    applied: r.code === 0 ? 'ok' : `exit ${r.code}: ${firstLine(r.err || r.out).slice(0, 90)}`,
    done,
    applyMs: t1 - t0,
    tx: during.length,
    max: ms.reduce((a, b) => Math.max(a, b), 0),
    p99: pct(ms, 99),
    over1s: ms.filter((x) => x > 1000).length,
    failed: during.filter((t) => t.failed).length + aborted,
    quietMax: quiet.reduce((a, b) => Math.max(a, b), 0),
    estimate: r.estimate,
    worstAt: worst && worst.ms > 100 ? (stepAt ?? (scheduled < t0 ? 'before the apply' : 'connecting, planning')) : '',
  };
}

if (!pgBin) throw new Error('no PostgreSQL installation found (set PG_BIN)');
const only = process.env.CASES?.split(',');
const modes = (process.env.MODES ?? 'default,online,psql').split(',');
const cases = CASES.filter((c) => !only || only.includes(c.name));
const cluster = await benchCluster();
const rows = [];
try {
  let n = 0;
  for (const c of cases)
    for (const lock of LOCK === '0' ? [false] : LOCK === 'only' ? [true] : [false, true])
      for (const mode of modes) {
        const r = await measure(cluster, c, mode, lock, n++);
        rows.push(r);
        log(
          `${r.case} ${r.mode}${lock ? ' +lock' : ''}: apply ${r.applied} (changed: ${r.done ? 'yes' : 'no'}) in ${(r.applyMs / 1000).toFixed(1)} s; max ${r.max.toFixed(0)} ms, p99 ${r.p99.toFixed(0)} ms, >1 s ${r.over1s}, failed ${r.failed} (quiet max ${r.quietMax.toFixed(0)} ms)${r.estimate ? `; the plan estimated ${(r.estimate.blocking / 1000).toFixed(1)} s blocking writes, ${(r.estimate.total / 1000).toFixed(1)} s of work` : ''}${r.worstAt ? `; slowest scheduled during: ${r.worstAt}` : ''}`,
        );
      }
} finally {
  await cluster.stop();
}
console.log(
  `disruption: coordinator + 2 workers on this machine; orders ${ROWS.toLocaleString('en')} rows over 32 shards, audit ${Math.ceil(ROWS / 10).toLocaleString('en')} rows (local), items 1,000 (reference); pgbench ${CLIENTS} clients at ${RATE} tx/s; latency from each transaction's scheduled start, over the transactions that completed between the apply's start and ${SETTLE_MS / 1000} s after its end`,
);
console.log(
  '| change | mode | lock on a worker shard | apply | changed | apply s | tx | max ms | p99 ms | > 1 s | failed |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|');
for (const r of rows)
  console.log(
    `| ${r.case} | ${r.mode} | ${r.lock ? `${LOCK_MODE} (2 s timeout)` : '—'} | ${r.applied.replace(/\|/g, '/')} | ${r.done ? 'yes' : 'no'} | ${(r.applyMs / 1000).toFixed(1)} | ${r.tx} | ${r.max.toFixed(0)} | ${r.p99.toFixed(0)} | ${r.over1s} | ${r.failed} | ${r.worstAt.slice(0, 70).replace(/\|/g, '/')} |`,
  );
const quiet = rows.map((r) => r.quietMax);
console.log(`before each apply (quiet): max latency median ${pct(quiet, 50).toFixed(0)} ms over ${rows.length} runs`);
