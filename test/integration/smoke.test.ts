// The end-to-end smoke .ci/run runs on each Node.js version besides the one the whole suite runs
// on: the built CLI (dist/cli.js, on the Node.js running the tests) validates, plans, applies and
// plans again against a throwaway PostgreSQL server; library.test.ts runs the README's example.
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshDatabase, plainServers } from '../support/db.js';
import { ACCOUNTS_MANIFEST, projectDir } from '../support/project.js';

const CLI = resolve('dist/cli.js');
const run = (args: string[], cwd: string) =>
  spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', env: { PATH: process.env.PATH } });

describe(`smoke on Node.js ${process.version}`, () => {
  it('validate, plan (changes: exit 2), apply, plan again (no changes: exit 0), through the built CLI', async () => {
    const db = await freshDatabase(plainServers(), 'smoke');
    const dir = projectDir(ACCOUNTS_MANIFEST, 'cm-smoke-');
    expect(run(['validate'], dir).status).toBe(0);
    const planned = run(['plan', '--database', db.url, '--detailed-exitcode'], dir);
    expect(planned.stdout).toContain('create table public.accounts');
    expect(planned.status).toBe(2);
    const applied = run(['apply', '--database', db.url, '--auto-approve'], dir);
    expect(applied.status, applied.stderr).toBe(0);
    expect(applied.stdout).toContain('verified: planning again is empty');
    const again = run(['plan', '--database', db.url, '--detailed-exitcode'], dir);
    expect(again.status, again.stdout).toBe(0);
  });
});
