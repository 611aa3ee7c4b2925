// The library without the CLI: plan, apply with its events recorded, plan again empty; a saved
// plan; approval refused; and the README's "Use it from code" example run as a program that
// imports 'citus-migrate' (the built package), against a real PostgreSQL the suite starts.
import { spawnSync } from 'node:child_process';
import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { apply, CmError, history, loadManifest, plan, type ApplyEvent } from '../../src/index.js';
import { freshDatabase, plainServers, type TestDb } from '../support/db.js';
import { ACCOUNTS_MANIFEST, projectDir } from '../support/project.js';

/** Events as a list of kinds and what they carried, in the order they came. */
function recorder(): { onEvent: (e: ApplyEvent) => void; seen: string[] } {
  const seen: string[] = [];
  const after = (afterCommit: boolean): string => (afterCommit ? ' afterCommit' : '');
  return {
    seen,
    onEvent: (e) => {
      switch (e.kind) {
        case 'waiting_for_lock':
          return void seen.push(`${e.kind} ${e.holder}`);
        case 'waiting_for_cluster':
          return void seen.push(`${e.kind} ${e.reasons.join('; ')}`);
        case 'starting':
          return void seen.push(`${e.kind} rehearse=${e.rehearse} steps=${e.steps}`);
        case 'step_started':
          return void seen.push(`${e.kind} ${e.step.index} ${e.step.kind}${after(e.afterCommit)}`);
        case 'step_finished':
          return void seen.push(`${e.kind} ${e.step.index}${after(e.afterCommit)} ${e.ms >= 0}`);
        case 'steps_ended':
          return void seen.push(e.kind);
        default:
          return void seen.push(`${e.kind} ${e.message}`);
      }
    },
  };
}

describe('the library (no CLI)', () => {
  let db: TestDb;
  beforeEach(async () => {
    db = await freshDatabase(plainServers(), 'lib');
  });

  it('plans, applies with events, and plans again empty', async () => {
    const file = join(projectDir(ACCOUNTS_MANIFEST, 'cm-lib-'), 'citus-migrate.yaml');
    const before = await plan(db.url, file);
    expect(before.changes).toBe(true);
    expect(before.source.kind).toBe('live');
    const { onEvent, seen } = recorder();
    const result = await apply(db.url, file, {}, onEvent);
    expect(result.outcome).toBe('applied');
    if (result.outcome !== 'applied') return;
    expect(result.plan.transaction.steps.map((s) => s.kind)).toEqual(['create_table']);
    expect(result.attempts).toBe(1);
    expect(Object.keys(result.timings)).toEqual([
      'connect_and_lock',
      'read',
      'plan_and_history',
      'transaction',
      'verify',
    ]);
    expect(seen).toEqual([
      'starting rehearse=false steps=1',
      'step_started 1 create_table',
      'step_finished 1 true',
      'steps_ended',
    ]);
    expect((await history(db.url)).map((h) => [h.id, h.outcome])).toEqual([[result.historyId, 'applied']]);
    expect((await plan(db.url, file)).changes).toBe(false);
    const again = await apply(db.url, await loadManifest(file), {}, recorder().onEvent);
    expect(again.outcome).toBe('nothing_to_do');
  });

  it('proves a plan on a copy (options.prove), and refuses prove for an offline plan', async () => {
    const file = join(projectDir(ACCOUNTS_MANIFEST, 'cm-lib-'), 'citus-migrate.yaml');
    const p = await plan(db.url, file, { prove: true });
    expect(p.problems).toEqual([]);
    expect(p.proof).toMatchObject({ ran: 1, copyDiffers: [], remaining: [], leftBehind: [] });
    const on = await plan(db.url, file, { prove: { on: db.url } });
    expect(on.proof?.scratch).toMatch(/\/citus_migrate_prove_[0-9a-f]{10}$/);
    await expect(plan('offline', file, { prove: true })).rejects.toThrow(
      "plan(): options.prove: needs a database: an 'offline' plan has none to copy",
    );
  });

  it('rehearses, refuses without approval, and takes a saved plan only while it is fresh', async () => {
    const file = join(projectDir(ACCOUNTS_MANIFEST, 'cm-lib-'), 'citus-migrate.yaml');
    const rehearsed = await apply(db.url, file, { rehearse: true });
    expect(rehearsed.outcome).toBe('rehearsed');
    const asked: number[] = [];
    const refused = await apply(db.url, file, {
      approve: async (p) => {
        asked.push(p.transaction.steps.length);
        return false;
      },
    });
    expect([refused.outcome, asked]).toEqual(['not_approved', [1]]);
    expect(await db.query("SELECT to_regclass('public.accounts') IS NULL AS none")).toEqual([{ none: true }]);
    const saved = JSON.parse(JSON.stringify(await plan(db.url, file)));
    await db.query('CREATE TABLE stray (x int)');
    const stale = await apply(db.url, { manifest: file, savedPlan: saved, planFile: 'p.json' }).catch((e) => e);
    expect(stale).toBeInstanceOf(CmError);
    expect([stale.code, stale.exitCode]).toEqual(['stale_plan', 5]);
    const fresh = JSON.parse(JSON.stringify(await plan(db.url, file)));
    const applied = await apply(db.url, { manifest: file, savedPlan: fresh });
    expect(applied.outcome).toBe('applied');
  });

  it("runs the README's example as a program importing 'citus-migrate'", () => {
    const readme = readFileSync('README.md', 'utf8');
    const example = /<!-- library-example -->\s*```js\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(example, 'README: a ```js block after <!-- library-example -->').toBeDefined();
    const dir = projectDir(ACCOUNTS_MANIFEST, 'cm-lib-readme-');
    // The package as installed: this repository's node_modules holds citus-migrate (file:.).
    symlinkSync(resolve('node_modules'), join(dir, 'node_modules'));
    writeFileSync(join(dir, 'example.mjs'), example!);
    const run = spawnSync(process.execPath, ['example.mjs'], {
      cwd: dir,
      env: { PATH: process.env.PATH, DATABASE_URL: db.url },
      encoding: 'utf8',
    });
    expect(run.stderr).toBe('step 1: create table public.accounts (2 columns)\n');
    expect(run.stdout).toBe('applied apply #1\nplanning again: no changes\n');
    expect(run.status).toBe(0);
    // The same text compiles as TypeScript against the package's declarations, strict and with
    // skipLibCheck off (a consumer's declarations are checked too).
    writeFileSync(join(dir, 'example.mts'), example!);
    const tsc = spawnSync(
      process.execPath,
      [
        resolve('node_modules/typescript/bin/tsc'),
        '--noEmit',
        '--strict',
        '--skipLibCheck',
        'false',
        '--module',
        'nodenext',
        '--moduleResolution',
        'nodenext',
        '--target',
        'es2022',
        'example.mts',
      ],
      { cwd: dir, encoding: 'utf8' },
    );
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);
  }, 120_000);
});
