// --timings against a database: plan's connection, catalog query and model; apply's lock,
// execution and verification; and, as a real process, node's start-up and the CLI's loading.
// The phases' names are checked, never their values.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshDatabase, plainServers } from '../support/db.js';
import { runCliProcess } from '../support/cli-process.js';
import { cli, phaseStart } from '../support/run-cli.js';
import { ACCOUNTS_MANIFEST, projectDir } from '../support/project.js';

const phases = (stderr: string): string[] =>
  stderr
    .split('\n')
    .filter((l) => l.startsWith('timings: '))
    .map((l) =>
      l
        .slice('timings: '.length)
        .replace(/\s+-?[\d.]+\s+-?[\d.]+$/, '')
        .trim(),
    );

describe('--timings against a database', () => {
  it('plan: connect, catalog query, model, diff, render', async () => {
    const db = await freshDatabase(plainServers(), 'timings');
    const r = await cli(['plan', '--database', db.url, '--timings'], { cwd: projectDir(ACCOUNTS_MANIFEST) });
    expect(r.code, r.stderr).toBe(0);
    expect(phases(r.stderr)).toEqual(
      expect.arrayContaining([
        'load command',
        'connect',
        'catalog query',
        'read catalog',
        'model',
        'read manifest',
        'parse manifest',
        'validate manifest',
        'resolve manifest',
        'diff',
        'render',
        'total',
      ]),
    );
  });

  it('plan on plain PostgreSQL: the plain catalog query goes out before the manifest is read, no Citus one failing first', async () => {
    const db = await freshDatabase(plainServers(), 'timings');
    // The connection's probe (db/session.ts) says the database has no citus. Were a Citus query
    // sent and refused, its refusal would be read only after the manifest's parsing, which holds
    // the event loop, and the plain query sent after it.
    const r = await cli(['plan', '--database', db.url, '--timings'], { cwd: projectDir(ACCOUNTS_MANIFEST) });
    expect(r.code, r.stderr).toBe(0);
    const at = (phase: string): number => phaseStart(r.stderr, phase);
    expect(at('catalog query')).toBeLessThan(at('read manifest'));
    expect(phases(r.stderr)).not.toContain('catalog query, plain');
  });

  it('apply: lock, execute, verify', async () => {
    const db = await freshDatabase(plainServers(), 'timings');
    const r = await cli(['apply', '--database', db.url, '--auto-approve', '--timings'], {
      cwd: projectDir(ACCOUNTS_MANIFEST),
    });
    expect(r.code, r.stderr).toBe(0);
    expect(phases(r.stderr)).toEqual(
      expect.arrayContaining(['connect', 'connect and lock', 'catalog query', 'execute', 'verify', 'total']),
    );
    // Every read knows the database has no citus: the plain catalog query goes out at once,
    // without a Citus one failing first.
    const all = phases(r.stderr);
    expect(all.slice(all.indexOf('verify'))).toContain('catalog query');
    expect(all).not.toContain('catalog query, plain');
  });

  it.each([[['plan']], [['--no-color', 'plan']]])(
    'as a process (%j): start-up and loading the CLI come first; plan connects once its arguments are parsed, before its code loads',
    async (command) => {
      const db = await freshDatabase(plainServers(), 'timings');
      const r = await runCliProcess([...command, '--database', db.url], {
        cwd: projectDir('version: 1\n'),
        env: { CITUS_MIGRATE_TIMINGS: '1' },
      });
      expect(r.code, r.stderr).toBe(0);
      // (cli/plan-program.ts: the catalog read starts in commander's action, the planner loads while
      // the server works on the query)
      const seen = phases(r.stderr);
      expect(seen.slice(1, 4)).toEqual(['start-up', 'load cli', 'connect']);
      expect(seen.indexOf('load command')).toBeGreaterThan(seen.indexOf('connect'));
      expect(seen).toContain('catalog query');
    },
  );

  it("start-up: node-postgres's Cloudflare probe does not load Node's fetch (undici)", async () => {
    const db = await freshDatabase(plainServers(), 'timings');
    const dir = projectDir('version: 1\n');
    // Node 20 has no `navigator`: pg then builds a Response, which loads undici (~20% of start-up).
    writeFileSync(
      join(dir, 'loaded.mjs'),
      "process.on('exit', () => process.stderr.write(`loaded: ${process.moduleLoadList.filter((m) => m.includes('undici')).join(',') || 'no undici'}\\n`));\n",
    );
    const r = spawnSync(
      process.execPath,
      ['--import', join(dir, 'loaded.mjs'), join(process.cwd(), 'dist/cli.js'), 'plan', '--database', db.url],
      { cwd: dir, encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } },
    );
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain('loaded: no undici');
  });
});
