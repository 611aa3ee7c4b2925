// history show N against a real PostgreSQL (one apply in full: steps, outcome, times, manifest,
// error). (apply's heartbeat: apply-heartbeat.test.ts.)
import { beforeEach, describe, expect, it } from 'vitest';
import { freshDatabase, plainServers, type TestDb } from '../support/db.js';
import { cli } from '../support/run-cli.js';
import { ACCOUNTS_MANIFEST, projectDir } from '../support/project.js';

const MANIFEST = ACCOUNTS_MANIFEST;

const project = (manifest = MANIFEST): string => projectDir(manifest, 'cm-history-');

describe('history show (plain PostgreSQL)', () => {
  let db: TestDb;
  beforeEach(async () => {
    db = await freshDatabase(plainServers(), 'hshow');
  });

  it('shows one apply: steps with kind and hazards, outcome, times, manifest; json too', async () => {
    const cwd = project();
    expect((await cli(['apply', '--database', db.url, '--auto-approve'], { cwd })).code).toBe(0);
    const dropped = project(`prune: true\n${MANIFEST.replace('name: text', 'nick: text')}`);
    const second = await cli(['apply', '--database', db.url, '--auto-approve', '--allow-hazards', 'all'], {
      cwd: dropped,
    });
    expect(second.code).toBe(0);
    const text = await cli(['history', 'show', '2', '--database', db.url]);
    expect(text.code).toBe(0);
    const lines = text.stdout.split('\n');
    expect(lines[0]).toBe('Apply #2: applied');
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}started {3}\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\S*$/));
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}finished {2}\S+ \S+ \(\d+ ms\)$/));
    expect(lines).toContainEqual(
      expect.stringMatching(/^ {2}manifest {2}citus-migrate\.yaml \(sha256 [0-9a-f]{12}\)$/),
    );
    expect(text.stdout).toContain('Steps (2):');
    expect(text.stdout).toMatch(/^ {2}\d\. drop_column +drop column .*name.* {2}\[drops_data\]$/m);
    expect(text.stdout).not.toContain('\x1b[');
    const json = await cli(['history', 'show', '2', '--database', db.url, '--format', 'json']);
    const apply = JSON.parse(json.stdout);
    expect(apply).toMatchObject({ id: 2, outcome: 'applied', step_count: 2, manifest_file: 'citus-migrate.yaml' });
    expect(apply.steps.map((s: { kind: string }) => s.kind).sort()).toEqual(['add_column', 'drop_column']);
    expect(apply.steps.find((s: { kind: string }) => s.kind === 'drop_column').hazards).toEqual(['drops_data']);
    // The option before the subcommand works as after it.
    const before = await cli(['history', '--format', 'json', 'show', '1', '--database', db.url]);
    expect(JSON.parse(before.stdout)).toMatchObject({ id: 1, outcome: 'applied', step_count: 1 });
  });

  it("shows a failed apply's error", async () => {
    const cwd = project(MANIFEST.replace('name: text', 'name: { type: text, default: "no_such_function(1)" }'));
    expect((await cli(['apply', '--database', db.url, '--auto-approve'], { cwd })).code).toBe(1);
    const r = await cli(['history', 'show', '1', '--database', db.url]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Apply #1: failed\n');
    expect(r.stdout).toMatch(/^ {2}error {5}.*function no_such_function\(integer\) does not exist$/m);
    expect(r.stdout).toContain('            SQLSTATE: 42883\n');
  });

  it('a missing apply is exit 1, a non-numeric one exit 64', async () => {
    const none = await cli(['history', 'show', '7', '--database', db.url]);
    expect(none.code).toBe(1);
    expect(none.stderr).toBe('error: no apply #7 is recorded in citus_migrate.applies (history lists them)\n');
    await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: project() });
    expect((await cli(['history', 'show', '9', '--database', db.url])).code).toBe(1);
    const json = await cli(['history', 'show', '9', '--database', db.url, '--format', 'json']);
    expect(JSON.parse(json.stdout).error).toMatchObject({ code: 'apply_not_found', id: 9 });
    const bad = await cli(['history', 'show', 'three', '--database', db.url]);
    expect(bad.code).toBe(64);
    expect(bad.stderr).toContain("value 'three' is invalid for argument 'id'");
  });
});
