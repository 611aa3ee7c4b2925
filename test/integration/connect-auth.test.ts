// Password authentication on a real server that asks for SCRAM: a missing password is named as
// such, the password file is read (without node-postgres's deprecation warning), and no output
// carries the password.
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresIds } from '../../src/cluster/install.js';
import { startLocalCluster, type LocalCluster } from '../../src/cluster/local.js';
import { runCliProcess, startCli } from '../support/cli-process.js';

const SECRET = 'Sc3am-pw-7731';

describe('password authentication (SCRAM)', () => {
  let cluster: LocalCluster;
  let dir: string;
  let url: string;
  beforeAll(async () => {
    cluster = await startLocalCluster({ citus: false });
    const hba = join(cluster.coordinator.dataDir, 'pg_hba.conf');
    // alice must give a password over TCP; everyone else keeps trust.
    // tls may connect only over TLS (with a certificate issued to another host name).
    writeFileSync(
      hba,
      `host all alice 127.0.0.1/32 scram-sha-256\nhostnossl all tls 127.0.0.1/32 reject\n${readFileSync(hba, 'utf8')}`,
    );
    const data = cluster.coordinator.dataDir;
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '2',
        '-subj',
        '/CN=elsewhere.invalid',
        '-keyout',
        join(data, 'server.key'),
        '-out',
        join(data, 'server.crt'),
      ],
      { stdio: 'ignore' },
    );
    chmodSync(join(data, 'server.key'), 0o600);
    if (process.getuid?.() === 0) {
      const { uid, gid } = postgresIds();
      for (const f of ['server.key', 'server.crt']) chownSync(join(data, f), uid, gid);
    }
    const c = new pg.Client({ connectionString: cluster.url() });
    await c.connect();
    await c.query(`CREATE ROLE alice LOGIN PASSWORD '${SECRET}'`);
    await c.query('CREATE ROLE tls LOGIN');
    await c.query('ALTER SYSTEM SET ssl = on');
    await c.query('SELECT pg_reload_conf()');
    await c.end();
    dir = mkdtempSync(join(tmpdir(), 'cm-auth-'));
    writeFileSync(join(dir, 'citus-migrate.yaml'), 'version: 1\ntables:\n  t: { local: true, columns: { a: int } }\n');
    url = `postgresql://alice@127.0.0.1:${cluster.coordinator.port}/postgres`;
  });
  afterAll(async () => {
    await cluster?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('says that no password was given, and for whom', async () => {
    const r = await runCliProcess(['plan', '--database', url], {
      cwd: dir,
      env: { PGPASSFILE: join(dir, 'none'), HOME: dir },
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `error: cannot connect to alice@127.0.0.1:${cluster.coordinator.port}/postgres: no password given for user alice (the server asks for one: put it in the URL, PGPASSWORD, or a password file, ~/.pgpass or PGPASSFILE, mode 0600)\n`,
    );
  });

  it('reads the password file without a deprecation warning, and prints no password', async () => {
    const file = join(dir, 'pgpass');
    writeFileSync(file, `127.0.0.1:${cluster.coordinator.port}:*:alice:${SECRET}\n`);
    chmodSync(file, 0o600);
    const r = await runCliProcess(['plan', '--database', url], { cwd: dir, env: { PGPASSFILE: file, HOME: dir } });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('1 step in one transaction');
    expect(r.stdout).not.toContain(SECRET);
  });

  it('reports a wrong password without echoing it', async () => {
    const r = await runCliProcess(
      ['plan', '--database', `postgresql://alice:wrong-${SECRET}@127.0.0.1:${cluster.coordinator.port}/postgres`],
      { cwd: dir, env: { HOME: dir } },
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('password authentication failed for user "alice"');
    expect(r.stderr).not.toContain(SECRET);
  });

  it('sslmode as libpq: require encrypts without checking the certificate, verify-full checks it, none is plain', async () => {
    const tls = (mode: string) =>
      runCliProcess(['plan', '--database', `postgresql://tls@127.0.0.1:${cluster.coordinator.port}/postgres${mode}`], {
        cwd: dir,
        env: { HOME: dir },
      });
    for (const mode of ['?sslmode=require', '?sslmode=prefer', '?ssl=true']) {
      const r = await tls(mode);
      expect(r.stderr, mode).toBe('');
      expect(r.code).toBe(0);
    }
    const full = await tls('?sslmode=verify-full');
    expect(full.code).toBe(1);
    expect(full.stderr).toMatch(/cannot connect to tls@127\.0\.0\.1:\d+\/postgres: self[- ]signed certificate/);
    const plain = await tls('');
    expect(plain.code).toBe(1);
    expect(plain.stderr).toContain('no encryption');
  });

  it('masks only where a password was written: a wrong password "failed" leaves "authentication failed" readable', async () => {
    const r = await runCliProcess(
      ['plan', '--database', `postgresql://alice:failed@127.0.0.1:${cluster.coordinator.port}/postgres`],
      { cwd: dir, env: { HOME: dir } },
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('password authentication failed for user "alice"');
  });

  it('takes the password from ?password= (also %-encoded) and from key=value strings with spaces and quotes', async () => {
    const port = cluster.coordinator.port;
    for (const database of [
      `postgresql://alice@127.0.0.1:${port}/postgres?password=${SECRET}`,
      `postgresql://alice@127.0.0.1:${port}/postgres?%70assword=${SECRET}`,
      `host=127.0.0.1 port=${port} dbname=postgres user=alice password = '${SECRET}'`,
    ]) {
      const r = await runCliProcess(['plan', '--database', database], { cwd: dir, env: { HOME: dir } });
      expect(r.stderr, database).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).not.toContain(SECRET);
    }
  });

  it("an empty password is read as libpq reads it: none in a URL (PGPASSWORD applies), password='' reads the password file", async () => {
    const port = cluster.coordinator.port;
    const url = await runCliProcess(['plan', '--database', `postgresql://alice:@127.0.0.1:${port}/postgres`], {
      cwd: dir,
      env: { HOME: dir, PGPASSFILE: join(dir, 'none'), PGPASSWORD: SECRET },
    });
    expect(url.stderr).toBe('');
    expect(url.code).toBe(0);
    const file = join(dir, 'pgpass-empty');
    writeFileSync(file, `127.0.0.1:${port}:*:alice:${SECRET}\n`);
    chmodSync(file, 0o600);
    // libpq: an empty password= is not replaced by PGPASSWORD, and the password file is read.
    const kv = await runCliProcess(
      ['plan', '--database', `host=127.0.0.1 port=${port} dbname=postgres user=alice password=''`],
      { cwd: dir, env: { HOME: dir, PGPASSFILE: file, PGPASSWORD: `wrong-${SECRET}` } },
    );
    expect(kv.stderr).toBe('');
    expect(kv.code).toBe(0);
  });
});

describe.runIf(existsSync('/proc/self/cmdline'))('the --database password in ps', () => {
  it('is gone from /proc/PID/cmdline while the command runs', async () => {
    // A server that accepts and never answers: the CLI waits in its connection attempt.
    const sockets: Socket[] = [];
    const server = createServer((s) => sockets.push(s));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    const secret = 'ps-Secret-4471';
    const { child, done } = startCli(
      ['history', '--database', `postgresql://alice:${secret}@127.0.0.1:${port}/postgres?connect_timeout=20`],
      { env: { HOME: tmpdir() } },
    );
    try {
      let cmdline = '';
      // Wait until the CLI is connecting (the server saw it), then look at what ps would show.
      for (let i = 0; i < 100 && sockets.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
      expect(sockets.length).toBe(1);
      cmdline = readFileSync(`/proc/${child.pid}/cmdline`, 'utf8');
      expect(cmdline).not.toContain(secret);
      expect(cmdline).toContain('citus-migrate history --database postgresql://alice:********@127.0.0.1:');
    } finally {
      child.kill('SIGKILL');
      await done;
      for (const s of sockets) s.destroy();
      server.close();
    }
  });
});
