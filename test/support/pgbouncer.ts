// A throwaway PgBouncer (Debian's package) in front of a test server, in transaction pooling:
// its own config and auth file in a temp dir, on a free port of 127.0.0.1, stopped by the test.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

const BINARIES = ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer'];

export interface Bouncer {
  readonly port: number;
  readonly version: string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
    s.on('error', reject);
  });
}

/** Starts PgBouncer for `server` (host, port, user); throws if it is not installed. */
export async function startPgbouncer(
  server: { host: string; port: number; user: string; password?: string },
  poolMode = 'transaction',
): Promise<Bouncer> {
  const bin = BINARIES.find((b) => existsSync(b));
  if (!bin) throw new Error('pgbouncer is not installed (Debian package pgbouncer; .ci/run installs it)');
  const version = spawnSync(bin, ['--version'], { encoding: 'utf8' }).stdout.split('\n')[0]!.trim();
  const dir = mkdtempSync(join(tmpdir(), 'cm-pgbouncer-'));
  const port = await freePort();
  writeFileSync(join(dir, 'userlist.txt'), `"${server.user}" "${server.password ?? ''}"\n`);
  writeFileSync(
    join(dir, 'pgbouncer.ini'),
    [
      '[databases]',
      `* = host=${server.host} port=${server.port}${server.password ? ` password=${server.password}` : ''}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      "unix_socket_dir = ''",
      'auth_type = trust',
      `auth_file = ${join(dir, 'userlist.txt')}`,
      `pool_mode = ${poolMode}`,
      'default_pool_size = 10',
      'max_client_conn = 200',
      // node-pg sends no options; application_name is one PgBouncer tracks itself.
      'ignore_startup_parameters = extra_float_digits',
      `logfile = ${join(dir, 'pgbouncer.log')}`,
      `pidfile = ${join(dir, 'pgbouncer.pid')}`,
    ].join('\n'),
  );
  // PgBouncer refuses to run as root: -u switches to the postgres OS user, who must read the files.
  const root = process.getuid?.() === 0;
  if (root) {
    const uid = Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout.trim());
    const gid = Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim());
    chownSync(dir, uid, gid);
    for (const f of ['userlist.txt', 'pgbouncer.ini']) chownSync(join(dir, f), uid, gid);
    chmodSync(dir, 0o700);
  }
  const child: ChildProcess = spawn(bin, [...(root ? ['-u', 'postgres'] : []), join(dir, 'pgbouncer.ini')], {
    stdio: 'ignore',
  });
  const stop = async (): Promise<void> => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGINT');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  for (let i = 0; i < 50; i++) {
    const c = new pg.Client({
      host: '127.0.0.1',
      port,
      user: server.user,
      database: 'postgres',
      ...(server.password ? { password: server.password } : {}),
    });
    c.on('error', () => undefined);
    try {
      await c.connect();
      await c.query('SELECT 1');
      await c.end();
      return { port, version, stop };
    } catch {
      await c.end().catch(() => undefined);
      if (child.exitCode !== null) break;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  await stop();
  throw new Error(`pgbouncer did not start on 127.0.0.1:${port}`);
}
