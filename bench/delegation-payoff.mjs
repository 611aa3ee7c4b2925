#!/usr/bin/env node
// Delegation payoff: on a fresh coordinator + 2 workers whose links run through a delay proxy
// (client → coordinator and coordinator → each worker; the workers are registered at the proxy's
// ports), load the TPC-C example and run the same mix, clients and duration three ways:
//   (a) tables distributed, procedures on every node but not delegated (no distribution argument);
//   (b) procedures distributed by warehouse: Citus delegates each CALL to the warehouse's worker;
//   (c) no procedures: the client sends the same statements one by one in a transaction.
// at each one-way delay, and prints new-order transactions per minute (NOPM), b/a and b/c. Then
// insert throughput into a distributed bigserial table through the coordinator at CACHE 1 and at
// the example manifest's cache. Modes a and b are switched by `citus-migrate apply`, and the
// tool's own delegation check confirms each.
// Finally, for scale, the same mix on one plain PostgreSQL (REFERENCE=0 skips it).
// Usage: npm run perf:payoff   (CLIENTS=8 WAREHOUSES=8 DURATION=20 WARMUP=3 DELAYS=0,0.5,1 SEQ_DURATION=10)
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { parse } from 'yaml';
import { findPgInstall, startLocalCluster } from '../dist/cluster/local.js';
import { initClusterDatabase } from '../dist/cluster/database.js';
import { measureAddedDelay, spawnDelayProxy } from './lib/delay-proxy.mjs';
import { checkConsistency, runMix } from './lib/tpcc-driver.mjs';

const num = (k, d) => Number(process.env[k] ?? d);
const clients = num('CLIENTS', 8);
const warehouses = num('WAREHOUSES', 8);
const duration = num('DURATION', 20);
const warmup = num('WARMUP', 3);
const seqDuration = num('SEQ_DURATION', 10);
const delays = (process.env.DELAYS ?? '0,0.5,1').split(',').map(Number);
// The three modes once more with a single client at this delay: latency without CPU contention.
const singleDelay = process.env.SINGLE_DELAY === '' ? undefined : num('SINGLE_DELAY', 0.5);
const log = (s) => process.stderr.write(`${s}\n`);
const cli = new URL('../dist/cli.js', import.meta.url).pathname;
const example = new URL('../examples/tpcc', import.meta.url).pathname;
const run = (cmd, args, opts = {}) => {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 << 20, ...opts });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}: ${r.stderr || r.stdout}`);
  return r.stdout;
};

// Busy and total CPU of the whole machine so far, in ms (from /proc/stat, USER_HZ = 100).
const machineCpu = () => {
  const [, ...f] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
  const [user, nice, system, idle, iowait, irq, softirq, steal] = f;
  return {
    busyMs: (user + nice + system + irq + softirq + steal) * 10,
    totalMs: (user + nice + system + idle + iowait + irq + softirq + steal) * 10,
  };
};

// CPU time (ms) of one PostgreSQL server so far: the postmaster, its live children (backends,
// background workers), and, through cutime/cstime, the children it has already reaped.
const ticks = (pid) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8')
    .replace(/^.*\) /, '')
    .split(' ')
    .map(Number);
  return { ppid: f[1], own: f[11] + f[12], reaped: f[13] + f[14] };
};
const serverCpuMs = (node) => {
  const postmaster = Number(readFileSync(join(node.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const pm = ticks(postmaster);
  let sum = pm.own + pm.reaped;
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const t = ticks(pid);
      if (t.ppid === postmaster) sum += t.own;
    } catch {
      /* exited meanwhile */
    }
  }
  return sum * 10;
};

const install = findPgInstall();
if (!install?.hasCitus) {
  console.error(
    'delegation-payoff needs PostgreSQL with the citus extension installed (none found; set PG_BIN to its bin directory)',
  );
  process.exit(1);
}

log(`measuring the delay proxy on its own (echo server, one client, 400 round trips per delay)…`);
const proxyCheck = await measureAddedDelay(delays);
const cluster = await startLocalCluster({ citus: true, workers: 2 });
const proxy = await spawnDelayProxy(
  [cluster.coordinator, ...cluster.workers].map((n) => ({ targetPort: n.port })),
  0,
);
let stopping;
const stopAll = () =>
  (stopping ??= (async () => {
    await proxy.stop().catch(() => {});
    await cluster.stop();
  })());
// Interrupted or crashed: still stop the three servers this script started.
for (const sig of ['SIGINT', 'SIGTERM'])
  process.once(sig, () => {
    void stopAll().finally(() => process.exit(130));
  });
process.once('uncaughtException', (e) => {
  console.error(e);
  void stopAll().finally(() => process.exit(1));
});
try {
  const [clientPort, ...workerPorts] = proxy.ports;
  await initClusterDatabase(cluster, 'postgres', { workerPort: (w) => workerPorts[cluster.workers.indexOf(w)] });
  const url = `postgresql://postgres@127.0.0.1:${clientPort}/postgres`;
  const db = new pg.Client({ connectionString: url });
  db.on('error', () => {}); // a failure surfaces at the next query; the proxy stops last
  await db.connect();

  // The example, and its variant for mode (a): the same procedures without distribution arguments.
  const dir = mkdtempSync(join(tmpdir(), 'delegation-payoff-'));
  cpSync(example, dir, { recursive: true });
  const manifest = readFileSync(join(dir, 'citus-migrate.yaml'), 'utf8').replace(
    /\{ int: \[1, 4\] \}/g,
    `{ int: [1, ${warehouses}] }`,
  );
  writeFileSync(join(dir, 'delegated.yaml'), manifest);
  writeFileSync(
    join(dir, 'not-delegated.yaml'),
    manifest.replace(/, distributed_by: p_w_id, colocation: warehouse/g, ''),
  );
  const apply = (file) =>
    run(process.execPath, [cli, 'apply', '-f', file, '--database', url, '--auto-approve'], { cwd: dir });
  const delegation = (file) => {
    const r = spawnSync(
      process.execPath,
      [
        cli,
        'bench',
        '-f',
        file,
        '--database',
        url,
        '--transactions',
        '20',
        '--clients',
        '1',
        '--warmup',
        '0s',
        '--format',
        'json',
      ],
      { cwd: dir, encoding: 'utf8' },
    );
    const report = JSON.parse(r.stdout);
    return report.workloads.map(
      (w) =>
        `${w.name}: ${w.delegation?.delegated ? `delegated to ${w.delegation.worker}` : `NOT delegated (${w.delegation?.reason ?? 'unknown'})`}`,
    );
  };

  apply(join(dir, 'delegated.yaml'));
  log(`loading ${warehouses} warehouses…`);
  run('psql', [
    '-X',
    '-q',
    '-v',
    'ON_ERROR_STOP=1',
    '-v',
    `warehouses=${warehouses}`,
    '-f',
    join(dir, 'load.sql'),
    url,
  ]);

  const modes = [
    {
      key: 'a',
      label: 'procedures, not delegated',
      driver: 'call',
      setup: () => apply(join(dir, 'not-delegated.yaml')),
      check: 'not-delegated.yaml',
    },
    {
      key: 'b',
      label: 'procedures, delegated',
      driver: 'call',
      setup: () => apply(join(dir, 'delegated.yaml')),
      check: 'delegated.yaml',
    },
    { key: 'c', label: 'statements from the client', driver: 'statements', setup: () => {} },
  ];
  const results = {};
  const checks = {};
  const nodes = [cluster.coordinator, ...cluster.workers];
  const measure = async (m, d, n) => {
    await proxy.setDelay(d);
    let p0, c0, s0, p1, c1, s1;
    const r = await runMix({
      url,
      mode: m.driver,
      clients: n,
      warehouses,
      durationMs: duration * 1000,
      warmupMs: warmup * 1000,
      seed: 7,
      onWindow: async () => {
        c0 = machineCpu();
        s0 = nodes.map(serverCpuMs);
        p0 = await proxy.usage();
      },
      onWindowEnd: async () => {
        c1 = machineCpu();
        s1 = nodes.map(serverCpuMs);
        p1 = await proxy.usage();
      },
    });
    const cores = (ms) => ms / ((c1.totalMs - c0.totalMs) / cpus().length); // /proc/stat counts every core
    const proxyMs = p1.cpuMs - p0.cpuMs;
    const [coordMs, ...workerMs] = s1.map((v, i) => v - s0[i]);
    const workersMs = workerMs.reduce((x, y) => x + y, 0);
    const tx = r.tps * duration;
    r.cpu = {
      client: cores(r.clientCpuMs),
      proxy: cores(proxyMs),
      coordinator: cores(coordMs),
      workers: cores(workersMs),
      other: cores(c1.busyMs - c0.busyMs - r.clientCpuMs - proxyMs - coordMs - workersMs),
      idle: cores(c1.totalMs - c0.totalMs - (c1.busyMs - c0.busyMs)),
      coordinatorMsPerTx: coordMs / tx,
      workersMsPerTx: workersMs / tx,
    };
    log(
      `(${m.key}) ${n} client(s) at ${d} ms: ${r.nopm.toFixed(0)} NOPM, ${r.tps.toFixed(0)} TPS, new order p50 ${r.byKind.new_order.p50.toFixed(1)} ms, errors ${r.errors}${r.errors ? ` ${JSON.stringify(r.firstError)}` : ''}; CPU (cores) client ${r.cpu.client.toFixed(2)}, proxy ${r.cpu.proxy.toFixed(2)}, coordinator ${r.cpu.coordinator.toFixed(2)}, workers ${r.cpu.workers.toFixed(2)}, idle ${r.cpu.idle.toFixed(2)}`,
    );
    return r;
  };
  for (const m of modes) {
    await proxy.setDelay(0);
    m.setup();
    if (m.check) {
      checks[m.key] = delegation(join(dir, m.check));
      log(`(${m.key}) ${m.label}: citus-migrate bench says ${checks[m.key].join('; ')}`);
    }
    for (const d of delays) results[`${m.key}@${d}`] = await measure(m, d, clients);
    if (singleDelay !== undefined) results[`${m.key}@${singleDelay}/1`] = await measure(m, singleDelay, 1);
  }

  // Sequence caches: the example's cache against CACHE 1, inserting through the coordinator.
  await proxy.setDelay(0);
  const cache = parse(readFileSync(join(example, 'citus-migrate.yaml'), 'utf8')).sequences.history_h_id_seq.cache;
  const seqManifest = manifest.replace(
    /\nsequences:\n/,
    `\n  seq_cache_1: { distributed_by: w, colocation: warehouse, columns: { id: bigserial, w: { type: integer, not_null: true }, payload: text } }
  seq_cache_n: { distributed_by: w, colocation: warehouse, columns: { id: bigserial, w: { type: integer, not_null: true }, payload: text } }

sequences:
  seq_cache_1_id_seq: { cache: 1 }
  seq_cache_n_id_seq: { cache: ${cache} }
`,
  );
  writeFileSync(join(dir, 'sequences.yaml'), seqManifest);
  apply(join(dir, 'sequences.yaml'));
  const inserts = async (table) => {
    const conns = await Promise.all(
      Array.from({ length: clients }, async () => {
        const c = new pg.Client({ connectionString: url });
        c.on('error', () => {});
        await c.connect();
        return c;
      }),
    );
    const end = performance.now() + (seqDuration * 1000) / 2;
    let n = 0;
    await Promise.all(
      conns.map(async (c, i) => {
        for (let k = i; performance.now() < end; k++) {
          await c.query({
            name: 'ins',
            text: `INSERT INTO ${table} (w, payload) VALUES ($1, 'x')`,
            values: [1 + (k % warehouses)],
          });
          n++;
        }
      }),
    );
    await Promise.all(conns.map((c) => c.end()));
    return n;
  };
  const seq = { 1: 0, [cache]: 0 };
  for (let round = 0; round < 2; round++) {
    // alternate, so drift hits both alike
    seq[1] += await inserts('seq_cache_1');
    seq[cache] += await inserts('seq_cache_n');
  }
  const dup = await db.query(
    'SELECT (SELECT count(*) - count(DISTINCT id) FROM seq_cache_1) + (SELECT count(*) - count(DISTINCT id) FROM seq_cache_n) AS dup',
  );
  const failed = await checkConsistency(db);
  await db.end();

  // Reference: the same procedures and mix on one plain PostgreSQL (no Citus, no proxy): what a
  // transaction costs the server without distributed planning.
  let reference;
  if (process.env.REFERENCE !== '0') {
    const local = parse(manifest);
    delete local.colocation;
    for (const t of Object.values(local.tables)) {
      delete t.distributed_by;
      delete t.colocation;
      delete t.reference;
      t.local = true;
    }
    for (const r of Object.values(local.routines)) {
      delete r.distributed_by;
      delete r.colocation;
    }
    writeFileSync(join(dir, 'local.json'), JSON.stringify(local, null, 2));
    const plain = await startLocalCluster({ citus: false });
    try {
      const plainUrl = plain.url('postgres');
      run(process.execPath, [cli, 'apply', '-f', join(dir, 'local.json'), '--database', plainUrl, '--auto-approve'], {
        cwd: dir,
      });
      run('psql', [
        '-X',
        '-q',
        '-v',
        'ON_ERROR_STOP=1',
        '-v',
        `warehouses=${warehouses}`,
        '-f',
        join(dir, 'load.sql'),
        plainUrl,
      ]);
      let s0, s1;
      const r = await runMix({
        url: plainUrl,
        mode: 'call',
        clients,
        warehouses,
        durationMs: duration * 1000,
        warmupMs: warmup * 1000,
        seed: 7,
        onWindow: () => {
          s0 = serverCpuMs(plain.coordinator);
        },
        onWindowEnd: () => {
          s1 = serverCpuMs(plain.coordinator);
        },
      });
      reference = {
        nopm: r.nopm,
        errors: r.errors,
        msPerTx: (s1 - s0) / (r.tps * duration),
        p50: r.byKind.new_order.p50,
      };
      log(
        `reference, plain PostgreSQL: ${r.nopm.toFixed(0)} NOPM, server ${reference.msPerTx.toFixed(2)} ms CPU per transaction`,
      );
    } finally {
      await plain.stop();
    }
  }

  // Report (markdown on stdout).
  const f0 = (x) => x.toFixed(0).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const measured = (d) => proxyCheck.find((p) => p.requestedMs === d)?.addedOneWayMs.p50 ?? NaN;
  const out = [];
  out.push(
    `Delegation payoff: coordinator + 2 workers + client + proxy on one machine (${cpus().length} cores), ${warehouses} warehouses, ${clients} clients, ${duration} s per run after ${warmup} s warm-up, TPC-C mix (45% new order).`,
  );
  out.push('');
  out.push('| one-way delay (measured) | (a) not delegated | (b) delegated | (c) client statements | b/a | b/c |');
  out.push('|---|---:|---:|---:|---:|---:|');
  for (const d of delays) {
    const [a, b, c] = ['a', 'b', 'c'].map((k) => results[`${k}@${d}`]);
    out.push(
      `| ${d} ms (${measured(d).toFixed(2)} ms) | ${f0(a.nopm)} NOPM | ${f0(b.nopm)} NOPM | ${f0(c.nopm)} NOPM | ${(b.nopm / a.nopm).toFixed(1)}× | ${(b.nopm / c.nopm).toFixed(1)}× |`,
    );
  }
  if (singleDelay !== undefined) {
    const [a, b, c] = ['a', 'b', 'c'].map((k) => results[`${k}@${singleDelay}/1`]);
    out.push(
      `| 1 client, ${singleDelay} ms | ${f0(a.nopm)} NOPM | ${f0(b.nopm)} NOPM | ${f0(c.nopm)} NOPM | ${(b.nopm / a.nopm).toFixed(1)}× | ${(b.nopm / c.nopm).toFixed(1)}× |`,
    );
  }
  out.push('');
  out.push(
    'Where the time goes: new-order median latency, and CPU over the measured window in cores of this machine (server CPU is per PostgreSQL instance, backends included; "ms/tx" is server CPU per transaction of the mix):',
  );
  out.push('');
  out.push(
    '| run | new order p50 | TPS | errors | client | proxy | coordinator | workers | idle | coordinator ms/tx | workers ms/tx |',
  );
  out.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const [k, r] of Object.entries(results)) {
    const [mode, rest] = k.split('@');
    const [d, one] = rest.split('/');
    out.push(
      `| (${mode}) ${d} ms${one ? ', 1 client' : ''} | ${r.byKind.new_order.p50.toFixed(1)} ms | ${f0(r.tps)} | ${r.errors} | ${r.cpu.client.toFixed(2)} | ${r.cpu.proxy.toFixed(2)} | ${r.cpu.coordinator.toFixed(2)} | ${r.cpu.workers.toFixed(2)} | ${r.cpu.idle.toFixed(2)} | ${r.cpu.coordinatorMsPerTx.toFixed(2)} | ${r.cpu.workersMsPerTx.toFixed(2)} |`,
    );
  }
  out.push('');
  out.push(
    `Delay proxy on its own (echo, one connection): at 0 ms it adds ${measured(0).toFixed(3)} ms one way (p50); ${proxyCheck
      .filter((p) => p.requestedMs > 0)
      .map(
        (p) =>
          `${p.requestedMs} ms → ${p.addedOneWayMs.p50.toFixed(2)} ms p50, ${p.addedOneWayMs.p99.toFixed(2)} ms p99`,
      )
      .join('; ')}. Its clock wakes ${proxy.wakeLateMs.toFixed(3)} ms late and compensates.`,
  );
  out.push('');
  out.push(
    `Delegation as \`citus-migrate bench\` reports it, new order: (a) ${checks.a?.[0]?.replace(/^new_order: /, '').replace(/ \(create_distributed_function.*\)\)$/, ')') ?? '?'}; (b) ${checks.b?.[0]?.replace(/^new_order: /, '') ?? '?'}.`,
  );
  out.push('');
  if (reference) {
    const b = results[`b@${delays.includes(0.5) ? 0.5 : delays[0]}`];
    out.push(
      `Reference, the same procedures and mix on one plain PostgreSQL (no Citus, no proxy, ${clients} clients): ${f0(reference.nopm)} NOPM, new order p50 ${reference.p50.toFixed(1)} ms, ${reference.msPerTx.toFixed(2)} ms of server CPU per transaction, errors ${reference.errors}; delegated on Citus the workers spend ${b.cpu.workersMsPerTx.toFixed(2)} ms per transaction.`,
    );
    out.push('');
  }
  const seqTps = (n) => n / seqDuration;
  out.push(
    `Sequence cache, single-row INSERT into a distributed bigserial table through the coordinator (0 ms delay, ${clients} clients, ${seqDuration} s each): CACHE 1 ${f0(seqTps(seq[1]))} rows/s, CACHE ${cache} ${f0(seqTps(seq[cache]))} rows/s, ratio ${(seq[cache] / seq[1]).toFixed(2)}×; duplicate ids: ${dup.rows[0].dup}.`,
  );
  out.push('');
  out.push(
    `TPC-C consistency conditions 1-4 after all runs: ${failed.length ? `FAILED: ${failed.join(', ')}` : 'ok'}.`,
  );
  console.log(out.join('\n'));
  if (failed.length || Number(dup.rows[0].dup) !== 0) process.exitCode = 1;
} finally {
  await stopAll();
}
