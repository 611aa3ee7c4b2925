// What the built CLI (dist/cli.js, the bundle npm ships) loads for a plan, as a real process
// (issue #25: a plan's fixed cost): few files, and the catalog query on its way before the
// manifest's parser and schema (yaml, zod), the catalog's validation and the planner load, so the
// server works on the query while they do.
import { spawnSync } from 'node:child_process';
import Module from 'node:module';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { freshDatabase, plainServers } from '../support/db.js';
import { projectDir } from '../support/project.js';

// Node's module hooks run on a thread of their own: each ES module's URL is appended to the log,
// synchronously, before the module runs; each CommonJS file (the bundle is CommonJS) is appended
// by Module.prototype.load, before it is compiled; the main thread appends CONNECT when it opens
// its first socket and QUERY when the catalog query is written to it. Lines before a mark were
// loaded before that happened.
const HOOKS = `
import { appendFileSync } from 'node:fs';
let log;
export function initialize(data) { log = data.log; }
export async function load(url, context, next) {
  appendFileSync(log, url + '\\n');
  return next(url, context);
}
`;
const RECORDER = (log: string): string => `
import Module, { register } from 'node:module';
import { appendFileSync } from 'node:fs';
import net from 'node:net';
import { pathToFileURL } from 'node:url';
register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(HOOKS)}), { data: { log: ${JSON.stringify(log)} } });
const load = Module.prototype.load;
Module.prototype.load = function (filename) {
  appendFileSync(${JSON.stringify(log)}, pathToFileURL(filename).href + '\\n');
  return load.call(this, filename);
};
const connect = net.Socket.prototype.connect;
let connected = false;
net.Socket.prototype.connect = function (...args) {
  if (!connected) {
    connected = true;
    appendFileSync(${JSON.stringify(log)}, 'CONNECT\\n');
  }
  return connect.apply(this, args);
};
const write = net.Socket.prototype.write;
let sent = false;
net.Socket.prototype.write = function (chunk, ...rest) {
  if (!sent && String(chunk).includes('citus_migrate.saved_0')) {
    sent = true;
    appendFileSync(${JSON.stringify(log)}, 'QUERY\\n');
  }
  return write.call(this, chunk, ...rest);
};
`;

// Text only their own code holds (the bundle keeps names): commander, zod's core, js-yaml (the
// manifest's reader; the yaml package is loaded only to locate a problem), the manifest's loader,
// the planner.
const COMMANDER = /\bclass CommanderError\b|\bCommanderError = class\b/;
const MARKERS: Readonly<Record<string, RegExp>> = {
  zod: /"\$ZodObject"/,
  'js-yaml': /this\.name = "YAMLException"/,
  'the manifest loader': /function loadManifestText\(/,
  'the planner': /function planLive\(/,
};

function loadedFiles(lines: readonly string[]): { url: string; text: string }[] {
  return lines
    .filter((u) => u.startsWith('file:'))
    .map((url) => ({ url, text: readFileSync(fileURLToPath(url), 'utf8') }));
}

describe('what the built CLI loads', () => {
  it('connects before loading commander, sends the catalog query before loading js-yaml, zod, the manifest loader and the planner; few files in all', async () => {
    const db = await freshDatabase(plainServers(), 'loading');
    const dir = projectDir('version: 1\n');
    const log = join(dir, 'loaded.log');
    writeFileSync(log, '');
    writeFileSync(join(dir, 'record.mjs'), RECORDER(log));
    const r = spawnSync(
      process.execPath,
      ['--import', join(dir, 'record.mjs'), join(process.cwd(), 'dist/cli.js'), 'plan', '--database', db.url],
      { cwd: dir, encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } },
    );
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('No changes');
    const lines = readFileSync(log, 'utf8').split('\n').filter(Boolean);
    const at = lines.indexOf('QUERY');
    expect(at, lines.join('\n')).toBeGreaterThan(0);
    // plan's connection opens before the CLI's argument parsing loads (cli/early-read.ts).
    const beforeConnect = loadedFiles(lines.slice(0, lines.indexOf('CONNECT')));
    expect(beforeConnect.filter((f) => COMMANDER.test(f.text)).map((f) => f.url)).toEqual([]);
    const before = loadedFiles(lines.slice(0, at).filter((l) => l !== 'CONNECT'));
    const after = loadedFiles(lines.slice(at + 1).filter((l) => l !== 'CONNECT'));
    for (const [what, marker] of Object.entries(MARKERS)) {
      expect(
        before.filter((f) => marker.test(f.text)).map((f) => f.url),
        `${what} loaded before the query`,
      ).toEqual([]);
      expect(
        after.some((f) => marker.test(f.text)),
        `${what} loaded after it`,
      ).toBe(true);
    }
    // The bundle: a few dozen files (the modules one by one were ~350: zod alone is 99).
    expect(before.length + after.length).toBeLessThan(100);
  });

  // Node >= 22.1 keeps compiled code itself (module.enableCompileCache), and says nothing of it.
  it.skipIf(typeof (Module as { enableCompileCache?: unknown }).enableCompileCache === 'function')(
    'keeps the compiled code of the bundle between runs (Node 20): same output, cached bytes used, bad bytes refused and replaced',
    () => {
      const root = process.cwd();
      const cacheDir = join(root, '.compile-cache');
      // `completion` names its own cache files (one set per command); only this test runs it.
      const mine = () => (existsSync(cacheDir) ? readdirSync(cacheDir).filter((f) => f.startsWith('completion-')) : []);
      for (const f of mine()) rmSync(join(cacheDir, f));
      const run = (env: Record<string, string> = {}) =>
        spawnSync(process.execPath, [join(root, 'dist/cli.js'), 'completion', 'bash'], {
          encoding: 'utf8',
          env: { PATH: process.env.PATH ?? '', CITUS_MIGRATE_TIMINGS: '1', ...env },
        });
      const cached = (stderr: string) => /compile cache: (\d+) of (\d+) files/.exec(stderr)?.slice(1).map(Number);
      const off = run({ CITUS_MIGRATE_COMPILE_CACHE: '0' });
      expect(off.status, off.stderr).toBe(0);
      expect(cached(off.stderr)).toBeUndefined();
      const first = run();
      expect(first.stdout).toBe(off.stdout);
      const [hits1, files] = cached(first.stderr)!;
      expect(hits1).toBe(0);
      expect(files).toBeGreaterThan(0);
      expect(mine()).toHaveLength(files!);
      const second = run();
      expect(second.stdout).toBe(off.stdout);
      expect(cached(second.stderr)).toEqual([files, files]);
      // Bytes V8 did not write (a corrupt or foreign file) are refused, never run: the files are
      // compiled from source and their cache written anew.
      for (const f of mine()) writeFileSync(join(cacheDir, f), Buffer.alloc(4096, 7));
      const third = run();
      expect(third.status, third.stderr).toBe(0);
      expect(third.stdout).toBe(off.stdout);
      expect(cached(third.stderr)).toEqual([0, files]);
      expect(mine().every((f) => !readFileSync(join(cacheDir, f)).equals(Buffer.alloc(4096, 7)))).toBe(true);
      expect(cached(run().stderr)).toEqual([files, files]);
    },
  );
});
