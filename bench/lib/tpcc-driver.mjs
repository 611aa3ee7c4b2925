// The TPC-C mix of examples/tpcc driven from Node, two ways with the same draws:
//   'call'       – one CALL of the example's procedure per transaction, literal arguments (a bound
//                  CALL is never delegated by Citus);
//   'statements' – the procedure's statements sent by the client one by one inside
//                  BEGIN … COMMIT, as named prepared statements (what an application does
//                  without stored procedures).
// Test and bench tooling only, not part of the CLI.
import pg from 'pg';

/** TPC-C's mix by weight, as in the example's bench section. */
export const MIX = [
  ['new_order', 45],
  ['payment', 43],
  ['order_status', 4],
  ['delivery', 4],
  ['stock_level', 4],
];
const ITEMS = 10_000; // load.sql's catalogue

/** A seeded 32-bit PRNG (mulberry32), so every mode draws the same transactions. */
export function makeRng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo, hi) => lo + Math.floor(next() * (hi - lo + 1));
  // TPC-C's non-uniform random (clause 2.1.6), C = 0.
  const nurand = (A, lo, hi) => ((int(0, A) | int(lo, hi)) % (hi - lo + 1)) + lo;
  return { next, int, nurand };
}

/** Draws one transaction of the mix: its kind and arguments (new order also draws its lines). */
export function drawTransaction(rng, warehouses) {
  let r = rng.int(1, 100);
  let kind = MIX[0][0];
  for (const [k, w] of MIX) {
    if (r <= w) {
      kind = k;
      break;
    }
    r -= w;
  }
  const w = rng.int(1, warehouses);
  const d = rng.int(1, 10);
  switch (kind) {
    case 'new_order': {
      const n = rng.int(5, 15);
      const lines = Array.from({ length: n }, () => ({ item: rng.int(1, ITEMS), qty: rng.int(1, 10) })).sort(
        (x, y) => x.item - y.item,
      ); // stock rows in item order, as the procedure: no deadlocks
      return { kind, args: [w, d, rng.nurand(1023, 1, 3000), n], lines };
    }
    case 'payment':
      return { kind, args: [w, d, rng.nurand(1023, 1, 3000), rng.int(1, 5000)] };
    case 'order_status':
      return { kind, args: [w, d, rng.nurand(1023, 1, 3000)] };
    case 'delivery':
      return { kind, args: [w, rng.int(1, 10)] };
    default:
      return { kind, args: [w, d, rng.int(10, 20)] };
  }
}

/** The CALL of the example's procedure for a drawn transaction (integers only: safe literals). */
export function callSql(tx) {
  return `CALL ${tx.kind}_tx(${tx.args.map((a) => String(Math.trunc(a))).join(', ')})`;
}

const q = (client, name, text, values) => client.query({ name, text, values });

// The procedures' statements, in the procedures' order (examples/tpcc/routines/*.sql).
const STATEMENTS = {
  async new_order(c, [w, d, cust, n], lines) {
    const tax = (await q(c, 'no1', 'SELECT w_tax FROM warehouse WHERE w_id = $1', [w])).rows[0].w_tax;
    const dist = (
      await q(
        c,
        'no2',
        'UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = $1 AND d_id = $2 RETURNING d_next_o_id - 1 AS o_id, d_tax',
        [w, d],
      )
    ).rows[0];
    const disc = (
      await q(c, 'no3', 'SELECT c_discount FROM customer WHERE c_w_id = $1 AND c_d_id = $2 AND c_id = $3', [w, d, cust])
    ).rows[0].c_discount;
    await q(
      c,
      'no4',
      'INSERT INTO orders (o_w_id, o_d_id, o_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, o_all_local) VALUES ($1, $2, $3, $4, localtimestamp, NULL, $5, 1)',
      [w, d, dist.o_id, cust, n],
    );
    await q(c, 'no5', 'INSERT INTO new_order (no_w_id, no_d_id, no_o_id) VALUES ($1, $2, $3)', [w, d, dist.o_id]);
    for (let i = 0; i < lines.length; i++) {
      const { item, qty } = lines[i];
      const price = (await q(c, 'no6', 'SELECT i_price FROM item WHERE i_id = $1', [item])).rows[0].i_price;
      await q(
        c,
        'no7',
        `UPDATE stock SET s_quantity = CASE WHEN s_quantity - $3 >= 10 THEN s_quantity - $3 ELSE s_quantity - $3 + 91 END,
        s_ytd = s_ytd + $3, s_order_cnt = s_order_cnt + 1 WHERE s_w_id = $1 AND s_i_id = $2`,
        [w, item, qty],
      );
      await q(
        c,
        'no8',
        `INSERT INTO order_line (ol_w_id, ol_d_id, ol_o_id, ol_number, ol_i_id, ol_supply_w_id, ol_delivery_d, ol_quantity, ol_amount, ol_dist_info)
        VALUES ($1, $2, $3, $4, $5, $1, NULL, $6::integer, $6::integer * $7::numeric * (1 + $8::numeric + $9::numeric) * (1 - $10::numeric), 'dist-info')`,
        [w, d, dist.o_id, i + 1, item, qty, price, tax, dist.d_tax, disc],
      );
    }
  },
  async payment(c, [w, d, cust, amount]) {
    await q(c, 'pa1', 'UPDATE warehouse SET w_ytd = w_ytd + $2 WHERE w_id = $1', [w, amount]);
    await q(c, 'pa2', 'UPDATE district SET d_ytd = d_ytd + $3 WHERE d_w_id = $1 AND d_id = $2', [w, d, amount]);
    await q(
      c,
      'pa3',
      'UPDATE customer SET c_balance = c_balance - $4, c_ytd_payment = c_ytd_payment + $4, c_payment_cnt = c_payment_cnt + 1 WHERE c_w_id = $1 AND c_d_id = $2 AND c_id = $3',
      [w, d, cust, amount],
    );
    await q(
      c,
      'pa4',
      "INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data) VALUES ($3, $2, $1, $2, $1, localtimestamp, $4, 'payment')",
      [w, d, cust, amount],
    );
  },
  async order_status(c, [w, d, cust]) {
    await q(c, 'os1', 'SELECT c_balance FROM customer WHERE c_w_id = $1 AND c_d_id = $2 AND c_id = $3', [w, d, cust]);
    const o = (
      await q(c, 'os2', 'SELECT max(o_id) AS o_id FROM orders WHERE o_w_id = $1 AND o_d_id = $2 AND o_c_id = $3', [
        w,
        d,
        cust,
      ])
    ).rows[0].o_id;
    await q(c, 'os3', 'SELECT count(*) FROM order_line WHERE ol_w_id = $1 AND ol_d_id = $2 AND ol_o_id = $3', [
      w,
      d,
      o,
    ]);
  },
  async delivery(c, [w, carrier]) {
    for (let d = 1; d <= 10; d++) {
      const min = (
        await q(c, 'de1', 'SELECT min(no_o_id) AS o FROM new_order WHERE no_w_id = $1 AND no_d_id = $2', [w, d])
      ).rows[0].o;
      if (min === null) continue;
      const del = await q(
        c,
        'de2',
        'DELETE FROM new_order WHERE no_w_id = $1 AND no_d_id = $2 AND no_o_id = $3 RETURNING no_o_id',
        [w, d, min],
      );
      if (del.rowCount === 0) continue;
      const cust = (
        await q(
          c,
          'de3',
          'UPDATE orders SET o_carrier_id = $4 WHERE o_w_id = $1 AND o_d_id = $2 AND o_id = $3 RETURNING o_c_id',
          [w, d, min, carrier],
        )
      ).rows[0].o_c_id;
      await q(
        c,
        'de4',
        'UPDATE order_line SET ol_delivery_d = localtimestamp WHERE ol_w_id = $1 AND ol_d_id = $2 AND ol_o_id = $3',
        [w, d, min],
      );
      const total = (
        await q(
          c,
          'de5',
          'SELECT coalesce(sum(ol_amount), 0) AS t FROM order_line WHERE ol_w_id = $1 AND ol_d_id = $2 AND ol_o_id = $3',
          [w, d, min],
        )
      ).rows[0].t;
      await q(
        c,
        'de6',
        'UPDATE customer SET c_balance = c_balance + $4, c_delivery_cnt = c_delivery_cnt + 1 WHERE c_w_id = $1 AND c_d_id = $2 AND c_id = $3',
        [w, d, cust, total],
      );
    }
  },
  async stock_level(c, [w, d, threshold]) {
    const next = (await q(c, 'sl1', 'SELECT d_next_o_id FROM district WHERE d_w_id = $1 AND d_id = $2', [w, d])).rows[0]
      .d_next_o_id;
    await q(
      c,
      'sl2',
      `SELECT count(DISTINCT s_i_id) FROM order_line JOIN stock ON s_w_id = ol_w_id AND s_i_id = ol_i_id
      WHERE ol_w_id = $1 AND ol_d_id = $2 AND ol_o_id >= $3 - 20 AND ol_o_id < $3 AND s_quantity < $4`,
      [w, d, next, threshold],
    );
  },
};

/** Runs one drawn transaction on `client` in the given mode; throws the server's error. */
export async function runTransaction(client, mode, tx) {
  if (mode === 'call') {
    await client.query(callSql(tx));
    return;
  }
  await client.query('BEGIN');
  try {
    await STATEMENTS[tx.kind](client, tx.args, tx.lines);
    await client.query('COMMIT');
  } catch (e) {
    await client.query('ROLLBACK').catch(() => {});
    throw e;
  }
}

const quantile = (sorted, p) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] : NaN;

/**
 * Runs the mix with `clients` connections for warmup + duration (ms), every client drawing from
 * its own seeded generator. Counts only what completes inside the measured window.
 * Returns new orders per minute, transactions per second, latencies and errors per kind, and the
 * client process's CPU time over the window. onWindow / onWindowEnd run when the window opens and
 * after the last transaction, before the connections close.
 */
export async function runMix({
  url,
  mode,
  clients,
  warehouses,
  durationMs,
  warmupMs = 0,
  seed = 1,
  onWindow,
  onWindowEnd,
}) {
  const conns = await Promise.all(
    Array.from({ length: clients }, async () => {
      const c = new pg.Client({ connectionString: url, application_name: `tpcc-${mode}` });
      c.on('error', () => {}); // a lost connection fails the transaction it was running; no crash
      await c.connect();
      return c;
    }),
  );
  const t0 = performance.now();
  const start = t0 + warmupMs;
  const end = start + durationMs;
  const kinds = Object.fromEntries(MIX.map(([k]) => [k, { ok: 0, latencies: [], errors: {} }]));
  const firstError = {};
  let cpuStart;
  let cpu;
  let started;
  const windowTimer = setTimeout(() => {
    cpuStart = process.cpuUsage();
    started = onWindow?.();
  }, warmupMs);
  try {
    await Promise.all(
      conns.map(async (client, i) => {
        const rng = makeRng(seed * 1000 + i);
        for (let now = performance.now(); now < end; now = performance.now()) {
          const tx = drawTransaction(rng, warehouses);
          const began = performance.now();
          let error;
          try {
            await runTransaction(client, mode, tx);
          } catch (e) {
            error = e;
          }
          const done = performance.now();
          if (began < start || done > end) continue;
          const k = kinds[tx.kind];
          if (error) {
            const code = error.code ?? 'client';
            k.errors[code] = (k.errors[code] ?? 0) + 1;
            if (!firstError[code]) firstError[code] = `${tx.kind}: ${error.message}`;
          } else {
            k.ok++;
            k.latencies.push(done - began);
          }
        }
      }),
    );
    // Still connected: server processes of these sessions are alive for the caller to measure.
    cpu = process.cpuUsage(cpuStart);
    await started;
    await onWindowEnd?.();
  } finally {
    clearTimeout(windowTimer);
    await Promise.all(conns.map((c) => c.end().catch(() => {})));
  }
  const seconds = durationMs / 1000;
  const byKind = Object.fromEntries(
    Object.entries(kinds).map(([k, v]) => {
      const sorted = v.latencies.sort((a, b) => a - b);
      return [k, { ok: v.ok, errors: v.errors, p50: quantile(sorted, 0.5), p95: quantile(sorted, 0.95) }];
    }),
  );
  const ok = Object.values(kinds).reduce((s, v) => s + v.ok, 0);
  const errors = Object.values(kinds).reduce((s, v) => s + Object.values(v.errors).reduce((a, b) => a + b, 0), 0);
  return {
    mode,
    clients,
    seconds,
    nopm: (kinds.new_order.ok / seconds) * 60,
    tps: ok / seconds,
    errors,
    firstError,
    byKind,
    clientCpuMs: (cpu.user + cpu.system) / 1000,
  };
}

/**
 * TPC-C consistency conditions 1–4 (clause 3.3.2) that the example's transactions keep, as one
 * query per condition; returns the names of those that fail.
 */
export async function checkConsistency(client) {
  // Joins on the distribution column with grouped subqueries: Citus pushes each down to the shards.
  const checks = {
    'w_ytd = sum(d_ytd)': `SELECT count(*) FROM warehouse JOIN (SELECT d_w_id, sum(d_ytd) AS s FROM district GROUP BY d_w_id) d
       ON d_w_id = w_id WHERE w_ytd <> s`,
    'd_next_o_id - 1 = max(o_id) = max(no_o_id)': `SELECT count(*) FROM district
       JOIN (SELECT o_w_id, o_d_id, max(o_id) AS m FROM orders GROUP BY 1, 2) o ON o_w_id = d_w_id AND o_d_id = d_id
       LEFT JOIN (SELECT no_w_id, no_d_id, max(no_o_id) AS m FROM new_order GROUP BY 1, 2) n ON no_w_id = d_w_id AND no_d_id = d_id
       WHERE d_next_o_id - 1 <> o.m OR d_next_o_id - 1 <> coalesce(n.m, d_next_o_id - 1)`,
    'new_order rows contiguous': `SELECT count(*) FROM (SELECT no_w_id, no_d_id FROM new_order GROUP BY 1, 2
       HAVING max(no_o_id) - min(no_o_id) + 1 <> count(*)) s`,
    'o_ol_cnt = order lines': `SELECT count(*) FROM orders JOIN (SELECT ol_w_id, ol_d_id, ol_o_id, count(*) AS n FROM order_line GROUP BY 1, 2, 3) l
       ON ol_w_id = o_w_id AND ol_d_id = o_d_id AND ol_o_id = o_id WHERE n <> o_ol_cnt`,
  };
  const failed = [];
  for (const [name, sql] of Object.entries(checks)) {
    const r = await client.query(sql);
    if (Number(r.rows[0].count) !== 0) failed.push(name);
  }
  return failed;
}
