// A TCP proxy that adds a one-way delay to every byte it forwards, in both directions: the
// benchmark's stand-in for a network, since the kernel's netem is not available here.
// Test and bench tooling only, not part of the CLI.
//
// Node's own timers tick in whole milliseconds (libuv keeps time in ms), so a 0.5 ms delay
// cannot come from setTimeout. A worker thread is the clock instead: it sleeps in Atomics.wait,
// whose timeout is a fractional number of milliseconds, and wakes the main thread, which writes
// what is due. The delay is the same for every chunk, so deadlines come in order and one FIFO
// queue serves all connections. What the delay really is (the requested one plus wake-up
// latency) is measured by measureAddedDelay, not assumed.
import net from 'node:net';
import { Worker } from 'node:worker_threads';
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const now = () => performance.timeOrigin + performance.now();

// The clock thread: waits until armed with a deadline, sleeps until it passes, then posts.
const CLOCK_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const flag = new Int32Array(workerData.sab, 0, 2);
const deadline = new Float64Array(workerData.sab, 8, 1);
const now = () => performance.timeOrigin + performance.now();
for (;;) {
  Atomics.wait(flag, 0, 0);
  if (Atomics.load(flag, 1) === 1) break;
  let rem;
  while ((rem = deadline[0] - now()) > 0) Atomics.wait(flag, 1, 0, rem);
  Atomics.store(flag, 0, 0);
  parentPort.postMessage(0);
}
`;

/** A FIFO of callbacks each run `delayMs` after it was queued (0: at once, in order). */
export class DelayLine {
  #queue = [];
  #head = 0;
  #armed = false;
  #sab = new SharedArrayBuffer(16);
  #flag = new Int32Array(this.#sab, 0, 2);
  #deadline = new Float64Array(this.#sab, 8, 1);
  #clock;
  #earlyMs = 0;
  delayMs = 0;

  constructor(delayMs = 0) {
    this.delayMs = delayMs;
    this.#clock = new Worker(CLOCK_SOURCE, { eval: true, workerData: { sab: this.#sab } });
    this.#clock.on('message', () => {
      this.#armed = false;
      this.#flush();
    });
    this.#clock.unref();
  }

  /** Runs `fn` after the delay, after everything queued before it. */
  push(fn) {
    if (this.delayMs <= 0 && this.#head === this.#queue.length) {
      fn();
      return;
    }
    const last = this.#queue[this.#queue.length - 1];
    const t = Math.max(now() + this.delayMs, last && this.#head < this.#queue.length ? last.t : 0);
    this.#queue.push({ t, fn });
    this.#arm();
  }

  #arm() {
    if (this.#armed) return;
    if (this.#head === this.#queue.length) {
      this.#clock.unref();
      return;
    }
    this.#armed = true;
    this.#clock.ref(); // a pending delivery keeps the process alive
    this.#deadline[0] = this.#queue[this.#head].t - this.#earlyMs;
    Atomics.store(this.#flag, 0, 1);
    Atomics.notify(this.#flag, 0);
  }

  #flush() {
    // Within 20 µs of due counts as due: another wake-up would cost more than that.
    const due = now() + 0.02 + this.#earlyMs;
    while (this.#head < this.#queue.length && this.#queue[this.#head].t <= due) {
      const { fn } = this.#queue[this.#head];
      this.#queue[this.#head++] = undefined;
      fn();
    }
    if (this.#head === this.#queue.length) {
      this.#queue = [];
      this.#head = 0;
    } else if (this.#head > 4096) {
      this.#queue = this.#queue.slice(this.#head);
      this.#head = 0;
    }
    this.#arm();
  }

  /**
   * Measures how late a wake-up arrives (thread hand-off, timer slack: ~0.1 ms here) and from
   * then on wakes that much early, so the median delay is the one asked for.
   */
  async calibrate(samples = 300) {
    const saved = this.delayMs;
    this.delayMs = 0.3;
    this.#earlyMs = 0;
    const late = [];
    for (let i = 0; i < samples; i++) {
      const t = now() + this.delayMs;
      await new Promise((resolve) =>
        this.push(() => {
          late.push(now() - t);
          resolve();
        }),
      );
    }
    late.sort((a, b) => a - b);
    this.#earlyMs = Math.max(0, late[Math.floor(late.length / 2)]);
    this.delayMs = saved;
    return this.#earlyMs;
  }

  close() {
    Atomics.store(this.#flag, 1, 1);
    Atomics.store(this.#flag, 0, 1);
    Atomics.notify(this.#flag, 0);
    Atomics.notify(this.#flag, 1);
    return this.#clock.terminate();
  }
}

/**
 * Listens on 127.0.0.1 for each route ({ targetHost, targetPort, listenPort? }) and forwards every
 * connection to its target through one shared DelayLine. Returns the listening ports.
 */
export async function startDelayProxy(routes, delayMs = 0) {
  const line = new DelayLine(delayMs);
  const wakeLateMs = await line.calibrate();
  const sockets = new Set();
  const stats = { connections: 0, chunks: 0, bytes: 0 };
  const forward = (from, to) => {
    from.on('data', (chunk) => {
      stats.chunks++;
      stats.bytes += chunk.length;
      line.push(() => {
        if (!to.destroyed && !to.write(chunk)) from.pause();
      });
    });
    to.on('drain', () => from.resume());
    // A clean end is passed on as an end (after the data before it); anything else as a reset.
    let ended = false;
    from.on('end', () => {
      ended = true;
      line.push(() => to.end());
    });
    from.on('error', () => {});
    from.on('close', () => {
      if (!ended) line.push(() => to.destroy());
    });
  };
  const servers = await Promise.all(
    routes.map(
      (r) =>
        new Promise((resolve, reject) => {
          // Half-open allowed on both sides: an end is passed on (after the data queued before it), and
          // the other direction keeps flowing until it ends too.
          const server = net.createServer({ allowHalfOpen: true }, (client) => {
            stats.connections++;
            const upstream = net.connect({
              host: r.targetHost ?? '127.0.0.1',
              port: r.targetPort,
              allowHalfOpen: true,
            });
            for (const s of [client, upstream]) {
              s.setNoDelay(true);
              sockets.add(s);
              s.on('close', () => sockets.delete(s));
            }
            forward(client, upstream);
            forward(upstream, client);
          });
          server.once('error', reject);
          server.listen(r.listenPort ?? 0, '127.0.0.1', () => resolve(server));
        }),
    ),
  );
  return {
    ports: servers.map((s) => s.address().port),
    stats,
    wakeLateMs,
    setDelay(ms) {
      line.delayMs = ms;
    },
    get delayMs() {
      return line.delayMs;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await Promise.all(servers.map((s) => new Promise((resolve) => s.close(() => resolve()))));
      await line.close();
    },
  };
}

/**
 * Runs the proxy in a child process of its own (so its CPU time is its own and it does not
 * compete with the caller's event loop). Returns the ports and a handle to change the delay,
 * read the child's CPU time and stop it.
 */
export async function spawnDelayProxy(routes, delayMs = 0) {
  const child = fork(fileURLToPath(import.meta.url), ['--child'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const pending = [];
  child.on('message', (m) => pending.shift()?.(m));
  const ask = (msg) =>
    new Promise((resolve, reject) => {
      if (!child.connected) {
        reject(new Error('delay proxy exited'));
        return;
      }
      pending.push(resolve);
      child.send(msg);
    });
  const ready = await ask({ type: 'start', routes, delayMs });
  if (ready.error) throw new Error(`delay proxy: ${ready.error}`);
  return {
    ports: ready.ports,
    /** How late the proxy's clock wakes (measured at start; it wakes that much early). */
    wakeLateMs: ready.wakeLateMs,
    pid: child.pid,
    setDelay: (ms) => ask({ type: 'delay', ms }),
    /** CPU time (user + system, ms) and forwarding counters of the proxy process so far. */
    usage: () => ask({ type: 'usage' }),
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * Measures what a proxy really adds: round trips of a small message through it to an echo
 * server, against the same without it. Returns median and p99 one-way added delay in ms.
 */
export async function measureAddedDelay(delaysMs, { samples = 400, spawn = spawnDelayProxy } = {}) {
  const echo = net.createServer((s) => {
    s.setNoDelay(true);
    s.pipe(s);
  });
  await new Promise((resolve) => echo.listen(0, '127.0.0.1', resolve));
  const echoPort = echo.address().port;
  const proxy = await spawn([{ targetPort: echoPort }], 0);
  const rtts = async (port) => {
    const s = net.connect({ host: '127.0.0.1', port });
    s.setNoDelay(true);
    await new Promise((resolve, reject) => {
      s.once('connect', resolve);
      s.once('error', reject);
    });
    const out = [];
    for (let i = 0; i < samples + 20; i++) {
      const t0 = now();
      await new Promise((resolve) => {
        s.once('data', resolve);
        s.write('x');
      });
      if (i >= 20) out.push(now() - t0);
    }
    s.destroy();
    return out.sort((a, b) => a - b);
  };
  const q = (xs, p) => xs[Math.min(xs.length - 1, Math.floor(p * xs.length))];
  try {
    const direct = await rtts(echoPort);
    const rows = [];
    for (const d of delaysMs) {
      await proxy.setDelay(d);
      const via = await rtts(proxy.ports[0]);
      rows.push({
        requestedMs: d,
        addedOneWayMs: { p50: (q(via, 0.5) - q(direct, 0.5)) / 2, p99: (q(via, 0.99) - q(direct, 0.5)) / 2 },
        rttMs: { direct: q(direct, 0.5), proxied: q(via, 0.5) },
      });
    }
    return rows;
  } finally {
    await proxy.stop();
    echo.close();
  }
}

if (process.argv[2] === '--child' && process.send) {
  let proxy;
  process.on('message', async (m) => {
    try {
      if (m.type === 'start') {
        proxy = await startDelayProxy(m.routes, m.delayMs);
        process.send({ ports: proxy.ports, wakeLateMs: proxy.wakeLateMs });
      } else if (m.type === 'delay') {
        proxy.setDelay(m.ms);
        process.send({ ok: true });
      } else if (m.type === 'usage') {
        const u = process.cpuUsage();
        process.send({ cpuMs: (u.user + u.system) / 1000, ...proxy.stats });
      }
    } catch (e) {
      process.send({ error: String(e?.message ?? e) });
    }
  });
  process.on('SIGTERM', async () => {
    await proxy?.close();
    process.exit(0);
  });
  process.on('disconnect', () => process.exit(0));
}
