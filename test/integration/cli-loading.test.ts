// What the built CLI (dist/cli.js, the bundle npm ships) loads for a plan, as a real process
// (issue #25: a plan's fixed cost): few files, and the catalog query on its way before the
// manifest's parser and schema (yaml, zod), the catalog's validation and the planner load, so the
// server works on the query while they do.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { freshDatabase, plainServers } from '../support/db.js';
import { projectDir } from '../support/project.js';

// Node's module hooks run on a thread of their own: each module's URL is appended to the log,
// synchronously, before the module runs; the main thread appends CONNECT when it opens its first
// socket and QUERY when the catalog query is written to it. Lines before a mark were loaded
// before that happened.
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
import { register } from 'node:module';
import { appendFileSync } from 'node:fs';
import net from 'node:net';
register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(HOOKS)}), { data: { log: ${JSON.stringify(log)} } });
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

// Text only their own code holds (the bundle keeps names): commander, zod's core, yaml's
// collections, the manifest's loader, the planner.
const COMMANDER = /\bclass CommanderError\b|\bCommanderError = class\b/;
const MARKERS: Readonly<Record<string, RegExp>> = {
  zod: /"\$ZodObject"/,
  yaml: /\bYAMLMap\b/,
  'the manifest loader': /function loadManifestText\(/,
  'the planner': /function planLive\(/,
};

function loadedFiles(lines: readonly string[]): { url: string; text: string }[] {
  return lines
    .filter((u) => u.startsWith('file:'))
    .map((url) => ({ url, text: readFileSync(fileURLToPath(url), 'utf8') }));
}

describe('what plan loads (the built CLI)', () => {
  it('connects before loading commander, sends the catalog query before loading yaml, zod, the manifest loader and the planner; few files in all', async () => {
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
});
