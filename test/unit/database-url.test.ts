import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { connectionTarget } from '../../src/db/connect.js';
import { parseConnection, parseDatabaseUrl } from '../../src/db/database-url.js';
import { sslSetting } from '../../src/db/ssl.js';
import { titleArgs } from '../../src/cli/process-title.js';
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

const EXPECTED = '(expected postgresql://user[:password]@host[:port]/database or host=… port=… dbname=… user=…)';

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
      host: '/var/run/postgresql',
      database: 'db',
      params: {},
    });
    expect(parseDatabaseUrl('postgresql://u:a:b@h/db').password).toBe('a:b');
  });

  it('takes what libpq takes: a password holding ? # :, query parameters that override, %-encoded keys', () => {
    expect(parseDatabaseUrl('postgresql://u:pa?s#s:w:rd@h:6000/db')).toEqual({
      user: 'u',
      password: 'pa?s#s:w:rd',
      host: 'h',
      port: 6000,
      database: 'db',
      params: {},
    });
    expect(parseDatabaseUrl('postgresql://u:x@h/db?password=y&user=v&host=g&port=7&dbname=e&ssl=true')).toEqual({
      user: 'v',
      password: 'y',
      host: 'g',
      port: 7,
      database: 'e',
      params: { sslmode: 'require' },
    });
    expect(parseDatabaseUrl('postgresql://u@h/db?%70assword=s%20t').password).toBe('s t');
    expect(parseDatabaseUrl('postgresql://u@h?password=a@b').password).toBe('a@b');
  });

  it('reads key=value strings as libpq does: spaces around "=", quotes and backslashes', () => {
    expect(
      parseDatabaseUrl(
        String.raw`host=db.example port = 6000 dbname='my db' user=alice password = 'x y\'z\\' sslmode=require`,
      ),
    ).toEqual({
      user: 'alice',
      password: "x y'z\\",
      host: 'db.example',
      port: 6000,
      database: 'my db',
      params: { sslmode: 'require' },
    });
    expect(parseDatabaseUrl(String.raw`password=a\ b host=h`)).toMatchObject({ password: 'a b', host: 'h' });
  });

  it('refuses malformed URLs, saying why, with the password masked', () => {
    expect(refusal('postgres:/alice:pw@127.0.0.1:9811/db')).toBe(
      `the URL does not parse: "postgres:" must be followed by "//": postgres:/alice:********@127.0.0.1:9811/db ${EXPECTED}`,
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
    expect(refusal('postgresql://a@h/db?sslmode')).toContain('the query parameter "sslmode" is not key=value');
    expect(refusal('postgresql://a@h/db?passwrd=pw')).toBe(
      `the URL does not parse: "passwrd" is not a libpq keyword: postgresql://a@h/db?passwrd=******** ${EXPECTED}`,
    );
    expect(refusal("host=h password='pw")).toBe(
      `the URL does not parse: unterminated quoted string for "password": host=h password=******** ${EXPECTED}`,
    );
    expect(refusal('host=h bad password=pw')).toContain(
      'missing "=" after a word that is not a libpq keyword: host=h ********',
    );
    expect(refusal('host=h port password=pw')).toContain('missing "=" after "port": host=h ********');
    expect(refusal('postgres://[bad')).toContain('is not a host name');
    expect(refusal('postgresql://h/db?service=x')).toContain('service= is not supported');
  });

  it('never prints a password, whatever it holds and whatever else is wrong', () => {
    for (const pw of ['pa?ss', 'p@ss', 'p#ss', 'pa/ss', 'p:ss', 'p ss', 'p&ss=', "p'ss", 'p\\ss', '99999']) {
      const enc = encodeURIComponent(pw);
      for (const text of [
        `postgresql://u:${pw}@h:x/db`,
        `postgresql://u:${pw}@h:70000/db`,
        `postgresql://u:${pw}@h/d/b`,
        `postgresql://u:${pw}@h/db?sslmode`,
        `postgres:/u:${pw}@h/db`,
        `mysql://u:${pw}@h/db`,
        `u:${pw}@h/db`,
        `postgresql://u@h:x/db?password=${enc}`,
        `postgresql://u@h:x/db?%70assword=${enc}`,
        `postgresql://u@h/db?password=${enc}&port=x`,
        `host=h port=x password='${pw.replace(/['\\]/g, '\\$&')}'`,
        `host = h password = '${pw.replace(/['\\]/g, '\\$&')}' port=x`,
        `host=h password='${pw.replace(/['\\]/g, '\\$&')}' nonsense`,
      ]) {
        let message = '';
        try {
          parseConnection(text);
        } catch (e) {
          message = JSON.stringify({ m: (e as Error).message, meta: (e as { meta: unknown }).meta });
        }
        expect(message, text).not.toBe('');
        expect(message, text).not.toContain(JSON.stringify(pw).slice(1, -1));
        if (pw !== enc) expect(message, text).not.toContain(enc);
      }
    }
  });

  it('masks a password where it was written, and nowhere else', () => {
    expect(parseConnection('postgresql://failed:failed@h/failed').masked).toBe('postgresql://failed:********@h/failed');
    expect(parseConnection('postgresql://u@h/db?%70assword=secret&sslmode=require').masked).toBe(
      'postgresql://u@h/db?%70assword=********&sslmode=require',
    );
    expect(parseConnection("host=h password = 'a b' user=password").masked).toBe(
      'host=h password = ******** user=password',
    );
  });
});

describe('sslSetting', () => {
  it('follows libpq: require encrypts without checking, verify-ca the chain, verify-full the host too', () => {
    expect(sslSetting({})).toEqual({ ssl: false, fallback: false });
    expect(sslSetting({ sslmode: 'disable' })).toEqual({ ssl: false, fallback: false });
    expect(sslSetting({ sslmode: 'require' })).toEqual({ ssl: { rejectUnauthorized: false }, fallback: false });
    expect(sslSetting({ sslmode: 'prefer' })).toEqual({ ssl: { rejectUnauthorized: false }, fallback: true });
    const ca = sslSetting({ sslmode: 'verify-ca' }).ssl as { checkServerIdentity?: () => unknown };
    expect(ca.checkServerIdentity?.()).toBeUndefined();
    expect(ca).not.toHaveProperty('rejectUnauthorized');
    expect(sslSetting({ sslmode: 'verify-full' })).toEqual({ ssl: {}, fallback: false });
    expect(() => sslSetting({ sslmode: 'on' })).toThrow('sslmode "on" is not one of disable, allow, prefer');
  });
});

describe('connectionTarget', () => {
  it('labels the target from the URL and never falls back to localhost for a bad one', () => {
    expect(connectionTarget('postgresql://alice:pw@10.1.2.3:6000/app', {}).label).toBe('alice@10.1.2.3:6000/app');
    expect(connectionTarget(undefined, { DATABASE_URL: 'postgresql://alice@db.example:6000/app' }).label).toBe(
      'alice@db.example:6000/app',
    );
    expect(connectionTarget(undefined, { PGHOST: 'h', PGPORT: '7', PGUSER: 'u' }).label).toBe('u@h:7/u');
    expect(connectionTarget('host=h port=7 user=u dbname=d password=x', {}).label).toBe('u@h:7/d');
    expect(() => connectionTarget(undefined, { DATABASE_URL: 'postgres:/alice:pw@127.0.0.1:9811/db' })).toThrow(
      /does not parse/,
    );
  });

  it('gives the password only when the server asks, from the URL, PGPASSWORD or the password file', async () => {
    const pw = (t: ReturnType<typeof connectionTarget>) => (t.config.password as () => Promise<string>)();
    await expect(pw(connectionTarget('postgresql://a:x@h/db', { PGPASSWORD: 'y' }))).resolves.toBe('x');
    await expect(pw(connectionTarget('postgresql://a@h/db', { PGPASSWORD: 'y' }))).resolves.toBe('y');
    await expect(pw(connectionTarget('postgresql://a@h/db?password=z', { PGPASSWORD: 'y' }))).resolves.toBe('z');
    await expect(pw(connectionTarget("host=h user=a password='z w'", {}))).resolves.toBe('z w');
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

  it('never prints a password holding "?" (text and JSON)', async () => {
    const r = await cli([
      'plan',
      '-f',
      'templates/saas/citus-migrate.yaml',
      '--database',
      'postgresql://alice:pa?ss@127.0.0.1:x/db',
      '--format',
      'json',
    ]);
    expect(r.code).toBe(64);
    expect(JSON.parse(r.stdout).error.url).toBe('postgresql://alice:********@127.0.0.1:x/db');
    expect(r.stdout + r.stderr).not.toContain('pa?ss');
  });
});

describe('titleArgs (what ps shows)', () => {
  it('masks each --database value where its password was written, or entirely when it does not parse', () => {
    expect(titleArgs(['plan', '--database', 'postgresql://u:pw@h/db', '-f', 'x.yaml'])).toEqual([
      'plan',
      '--database',
      'postgresql://u:********@h/db',
      '-f',
      'x.yaml',
    ]);
    expect(titleArgs(["--database=host=h password='a b'"])).toEqual(['--database=host=h password=********']);
    expect(titleArgs(['--database', 'postgres:/u:pw@h'])).toEqual(['--database', '********']);
  });
});

describe('session settings', () => {
  it('every client the tool connects goes through connectSession (standard_conforming_strings, client_encoding)', () => {
    const files = readdirSync('src', { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    const direct = files.filter(
      (f) => f !== join('db', 'session.ts') && /\.connect\(\)/.test(readFileSync(join('src', f), 'utf8')),
    );
    expect(direct).toEqual([]);
  });
});
