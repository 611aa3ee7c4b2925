// The benchmark's delay proxy: every byte arrives, in order, in both directions, under
// back-pressure and half-close, and no sooner than the delay allows.
import { createHash, randomBytes } from 'node:crypto';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { DelayLine, startDelayProxy, type DelayProxy } from '../../bench/lib/delay-proxy.mjs';

const sha = (b: Buffer): string => createHash('sha256').update(b).digest('hex');
const cleanup: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0)) await f();
});

async function listen(onConnection: (s: net.Socket) => void): Promise<number> {
  const server = net.createServer({ allowHalfOpen: true }, onConnection);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanup.push(() => new Promise((resolve) => server.close(resolve)));
  return (server.address() as net.AddressInfo).port;
}

async function proxyTo(port: number, delayMs: number): Promise<DelayProxy> {
  const proxy = await startDelayProxy([{ targetPort: port }], delayMs);
  cleanup.push(() => proxy.close());
  return proxy;
}

function readAll(s: net.Socket): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    s.on('data', (d: Buffer) => parts.push(d));
    s.on('end', () => resolve(Buffer.concat(parts)));
    s.on('error', reject);
  });
}

describe('delay proxy', () => {
  it.each([0, 1])('forwards 4 MB each way intact and in order, with a slow reader, at %s ms', async (delay) => {
    const up = randomBytes(4 << 20);
    const down = randomBytes(4 << 20);
    let received!: Promise<Buffer>;
    const port = await listen((s) => {
      // A reader that stalls: the proxy must hold back, not drop or reorder.
      s.pause();
      setTimeout(() => s.resume(), 200);
      received = readAll(s);
      s.end(down);
    });
    const proxy = await proxyTo(port, delay);
    const client = net.connect({ host: '127.0.0.1', port: proxy.ports[0]! });
    const back = readAll(client);
    client.end(up);
    expect(sha(await back)).toBe(sha(down));
    expect(sha(await received)).toBe(sha(up));
    expect(proxy.stats.bytes).toBe(up.length + down.length);
  });

  it('passes a half-close on after the data, and keeps the other direction open', async () => {
    const port = await listen((s) => {
      readAll(s)
        .then((b) => s.end(`got ${b.length} bytes`))
        .catch(() => {});
    });
    const proxy = await proxyTo(port, 1);
    const client = net.connect({ host: '127.0.0.1', port: proxy.ports[0]! });
    const reply = readAll(client);
    client.write('hello ');
    client.end('world');
    expect((await reply).toString()).toBe('got 11 bytes');
  });

  it('delays each direction by at least the delay, less the early wake-up it measured', async () => {
    const port = await listen((s) => {
      s.setNoDelay(true);
      s.pipe(s);
    });
    const proxy = await proxyTo(port, 3);
    const client = net.connect({ host: '127.0.0.1', port: proxy.ports[0]! });
    client.setNoDelay(true);
    await new Promise((resolve) => client.once('connect', resolve));
    const rtts: number[] = [];
    for (let i = 0; i < 20; i++) {
      const t0 = performance.now();
      await new Promise((resolve) => {
        client.once('data', resolve);
        client.write('x');
      });
      rtts.push(performance.now() - t0);
    }
    client.destroy();
    expect(proxy.wakeLateMs).toBeGreaterThanOrEqual(0);
    expect(Math.min(...rtts)).toBeGreaterThanOrEqual(2 * (3 - proxy.wakeLateMs) - 0.05);
  });

  it('runs queued callbacks in order, each after the delay (0 ms: at once)', async () => {
    const line = new DelayLine(2);
    cleanup.push(() => line.close());
    const seen: [number, number][] = [];
    const t0 = performance.now();
    await Promise.all(
      Array.from(
        { length: 50 },
        (_, i) =>
          new Promise<void>((resolve) =>
            line.push(() => {
              seen.push([i, performance.now() - t0]);
              resolve();
            }),
          ),
      ),
    );
    expect(seen.map(([i]) => i)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(seen[0]![1]).toBeGreaterThanOrEqual(1.9);
    line.delayMs = 0;
    let ran = false;
    line.push(() => {
      ran = true;
    });
    expect(ran).toBe(true);
  });
});
