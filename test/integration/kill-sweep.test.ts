// SIGKILL at many points of an apply (a sweep of delays across its whole run, so across its step
// boundaries): the database is always either exactly as before or fully converged — never in
// between — and the next apply always converges.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogSnapshot, citusServers, freshDatabase, plainServers, type TestDb } from '../support/db.js';
import type { ServerInfo } from '../support/servers.js';
import { startCli } from '../support/cli-process.js';
import { cli } from '../support/run-cli.js';

// Colocation ids used by a killed (rolled-back) transaction are never reused: compare groups by
// membership, with ids renumbered in order of appearance.
const catalog = (db: TestDb): Promise<string> => catalogSnapshot(db, { normalizeIds: true, shards: true });

function manifest(citus: boolean): string {
  const tables = Array.from(
    { length: 12 },
    (_, i) =>
      `  t${i}: { ${citus ? (i % 3 === 0 ? 'reference: true' : 'distributed_by: id, colocation: g') : 'local: true'}, columns: { id: { type: bigint, not_null: true }, v: text }, primary_key: [id] }`,
  );
  return `version: 1\n${citus ? 'colocation:\n  g: { shard_count: 4 }\n' : ''}tables:\n${tables.join('\n')}\n`;
}

async function sweep(info: ServerInfo, citus: boolean, delays: number[]): Promise<{ before: number; after: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'cm-kill-'));
  writeFileSync(join(dir, 'citus-migrate.yaml'), manifest(citus));
  // The converged state, for comparison: apply once on a reference database.
  const ref = await freshDatabase(info, 'killref');
  expect((await cli(['apply', '--database', ref.url, '--auto-approve'], { cwd: dir })).code).toBe(0);
  const converged = await catalog(ref);
  const seen = { before: 0, after: 0 };
  for (const delay of delays) {
    const db = await freshDatabase(info, 'kill');
    const before = await catalog(db);
    const { child, done } = startCli(['apply', '--database', db.url, '--auto-approve'], { cwd: dir });
    await new Promise((r) => setTimeout(r, delay));
    child.kill('SIGKILL');
    await done;
    // Wait for the server to notice the dead session and roll its transaction back.
    for (let i = 0; i < 100; i++) {
      const [row] = await db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'citus-migrate'",
      );
      if (row!.n === 0) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const now = await catalog(db);
    const state = now === before ? 'before' : now === converged ? 'after' : 'in between';
    expect(state, `killed after ${delay} ms`).not.toBe('in between');
    seen[state as 'before' | 'after']++;
    const next = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: dir });
    expect(next.code, next.stderr).toBe(0);
    expect(await catalog(db)).toBe(converged);
  }
  return seen;
}

// `npm test` kills at every other point, across the same span; `npm run test:reliability` at all (KILL_SWEEP=full).
const full = process.env.KILL_SWEEP === 'full';
const points = (all: number[]): number[] => (full ? all : all.filter((_, i) => i % 2 === 0 || i === all.length - 1));
const PLAIN_POINTS = points([150, 250, 300, 350, 400, 450, 500, 550, 600, 700, 900, 1500]);
const CITUS_POINTS = points([200, 350, 450, 550, 650, 750, 900, 1100, 1400, 2500]);

describe('SIGKILL sweep', () => {
  it(`plain PostgreSQL: ${PLAIN_POINTS.length} kill points, each all-or-nothing`, async () => {
    const seen = await sweep(plainServers(), false, PLAIN_POINTS);
    console.log(
      `kill sweep (PostgreSQL): ${seen.before} kills left the database as before, ${seen.after} after a finished apply, 0 in between`,
    );
  });

  it.skipIf(!citusServers())(`Citus: ${CITUS_POINTS.length} kill points, each all-or-nothing`, async () => {
    const seen = await sweep(citusServers()!, true, CITUS_POINTS);
    console.log(
      `kill sweep (Citus): ${seen.before} kills left the cluster as before, ${seen.after} after a finished apply, 0 in between`,
    );
  });
});
