import { describe, expect, it } from 'vitest';
import { connectionTarget } from '../../src/db/connect.js';
import { maskUrl, parseDatabaseUrl } from '../../src/db/database-url.js';
import { pgpassLookup } from '../../src/db/pgpass.js';
import { cli } from '../support/run-cli.js';

const refusal = (url: string): string => {
  try {
    parseDatabaseUrl(url);
  } catch (e) {
    expect((e as { exitCode: number }).exitCode).toBe(64);
    return (e as Error).message;
  }
  throw new Error(`parsed: ${url}`);
};

describe('parseDatabaseUrl', () => {
  it('reads a well-formed URL, decoding every part', () => {
    expect(parseDatabaseUrl('postgresql://alice:p%40ss@127.0.0.1:9811/my%20db?sslmode=disable')).toEqual({
      user: 'alice',
      password: 'p@ss',
      host: '127.0.0.1',
      port: 9811,
      database: 'my db',
      params: { sslmode: 'disable' },
    });
    expect(parseDatabaseUrl('postgres://[::1]:5432/db')).toEqual({
      host: '::1',
      port: 5432,
      database: 'db',
      params: {},
    });
    expect(parseDatabaseUrl('postgresql:///db?host=/var/run/postgresql')).toEqual({
      host: '',
      database: 'db',
      params: { host: '/var/run/postgresql' },
    });
    expect(parseDatabaseUrl('postgresql://u:a:b@h/db').password).toBe('a:b');
  });

  it('refuses malformed URLs, saying why, with the password masked', () => {
    expect(refusal('postgres:/alice:pw@127.0.0.1:9811/db')).toBe(
      'the URL does not parse: "postgres:" must be followed by "//": postgres:/alice:********@127.0.0.1:9811/db (expected postgresql://user[:password]@host[:port]/database)',
    );
    expect(refusal('postgresql//alice:pw@127.0.0.1:9811/db')).toContain(
      'the URL does not parse: it does not start with postgresql://: postgresql//alice:********@127.0.0.1:9811/db',
    );
    expect(refusal('alice:pw@127.0.0.1:9811/db')).toContain(
      'the URL does not parse: it does not start with postgresql://: alice:********@127.0.0.1:9811/db',
    );
    expect(refusal('127.0.0.1:9811/db')).toContain('it does not start with postgresql://');
    expect(refusal('mysql://a:pw@h/db')).toContain('the scheme is "mysql:", not postgresql:: mysql://a:********@h/db');
    expect(refusal('postgresql://a:pw@h:99999/db')).toContain(
      'the port "99999" is not a number from 1 to 65535: postgresql://a:********@h:99999/db',
    );
    expect(refusal('postgresql://a:pw@h:x/db')).toContain('the port "x" is not a number');
    expect(refusal('postgresql://a:p#w@h/db')).toContain('"#" fragment');
    expect(refusal('host=h user=a password=pw dbname=x')).toBe(
      'the URL does not parse: key=value connection strings are not supported; give a URL or use the PG* variables: host=h user=a password=******** dbname=x (expected postgresql://user[:password]@host[:port]/database)',
    );
    expect(refusal('postgresql://a@h/db?sslmode')).toContain('is not key=value');
    expect(refusal('postgres://[bad')).toContain('is not a host name');
  });

  it('masks what may be a password in any shape', () => {
    expect(maskUrl('postgresql://u:secret@h/db')).toBe('postgresql://u:********@h/db');
    expect(maskUrl('postgresql://u@h/db?password=secret&x=1')).toBe('postgresql://u@h/db?password=********&x=1');
    expect(maskUrl('u:se:cr@et@h')).toBe('u:********@h');
    expect(maskUrl('postgresql://h/db')).toBe('postgresql://h/db');
  });
});

describe('connectionTarget', () => {
  it('labels the target from the URL and never falls back to localhost for a bad one', () => {
    expect(connectionTarget('postgresql://alice:pw@10.1.2.3:6000/app', {}).label).toBe('alice@10.1.2.3:6000/app');
    expect(connectionTarget(undefined, { DATABASE_URL: 'postgresql://alice@db.example:6000/app' }).label).toBe(
      'alice@db.example:6000/app',
    );
    expect(connectionTarget(undefined, { PGHOST: 'h', PGPORT: '7', PGUSER: 'u' }).label).toBe('u@h:7/u');
    expect(() => connectionTarget(undefined, { DATABASE_URL: 'postgres:/alice:pw@127.0.0.1:9811/db' })).toThrow(
      /does not parse/,
    );
  });

  it('gives the password only when the server asks, from the URL, PGPASSWORD or the password file', async () => {
    const pw = (t: ReturnType<typeof connectionTarget>) => (t.config.password as () => Promise<string>)();
    await expect(pw(connectionTarget('postgresql://a:x@h/db', { PGPASSWORD: 'y' }))).resolves.toBe('x');
    await expect(pw(connectionTarget('postgresql://a@h/db', { PGPASSWORD: 'y' }))).resolves.toBe('y');
    await expect(pw(connectionTarget('postgresql://a@h/db', { PGPASSFILE: '/nonexistent/pgpass' }))).rejects.toThrow(
      'no password given for user a (the server asks for one: put it in the URL, PGPASSWORD, or a password file, ~/.pgpass or PGPASSFILE, mode 0600)',
    );
  });
});

describe('pgpassLookup', () => {
  it('matches the first line as libpq does, with wildcards and escapes', () => {
    const file = '# comment\nother:5432:*:a:no\nh:5432:db:a:pa\\:ss\n*:*:*:*:any\n';
    expect(pgpassLookup(file, { host: 'h', port: 5432, database: 'db', user: 'a' })).toBe('pa:ss');
    expect(pgpassLookup(file, { host: 'x', port: 1, database: 'd', user: 'u' })).toBe('any');
    expect(
      pgpassLookup('localhost:5432:*:a:sock\n', { host: '/var/run/postgresql', port: 5432, database: 'd', user: 'a' }),
    ).toBe('sock');
    expect(pgpassLookup('h:5432:db:a\n', { host: 'h', port: 5432, database: 'db', user: 'a' })).toBeUndefined();
  });
});

describe('the CLI with a malformed URL', () => {
  const bad = 'postgres:/alice:pw@127.0.0.1:9811/db';
  it.each([
    ['--database', ['plan', '-f', 'templates/saas/citus-migrate.yaml', '--database', bad], {}],
    ['DATABASE_URL', ['plan', '-f', 'templates/saas/citus-migrate.yaml'], { DATABASE_URL: bad }],
    ['history', ['history', '--database', bad], {}],
    ['introspect', ['introspect', '--database', bad], {}],
  ])('exits 64 and never prints the password (%s)', async (_name, args, env) => {
    const r = await cli(args, { env });
    expect(r.code).toBe(64);
    expect(r.stderr).toContain(
      'error: the URL does not parse: "postgres:" must be followed by "//": postgres:/alice:********@127.0.0.1:9811/db',
    );
    expect(r.stderr + r.stdout).not.toContain('pw');
  });

  it('says the same in the JSON envelope', async () => {
    const r = await cli(['plan', '-f', 'templates/saas/citus-migrate.yaml', '--database', bad, '--format', 'json']);
    expect(r.code).toBe(64);
    const env = JSON.parse(r.stdout) as { error: { code: string; url: string; message: string } };
    expect(env.error.code).toBe('invalid_url');
    expect(env.error.url).toBe('postgres:/alice:********@127.0.0.1:9811/db');
    expect(r.stdout + r.stderr).not.toContain(':pw@');
  });
});
