// Property tests against real servers. Hostile names: random identifiers for schemas, tables,
// columns, sequences and routines are created, introspected and planned empty again.
// Convergence: random valid manifests apply on a fresh database and plan empty; then a random
// edit applies and plans empty; more kinds on Citus when present.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { planLive } from '../../src/plan/from-manifest.js';
import { readLiveState } from '../../src/own/live-state.js';
import { liveToManifest } from '../../src/introspect/to-manifest.js';
import { loadManifest, loadManifestText } from '../../src/manifest/load.js';
import { quoteIdent, quoteQualified } from '../../src/sql/quote.js';
import { citusServers, freshDatabase, plainServers, type TestDb } from '../support/db.js';
import type { ServerInfo } from '../support/servers.js';
import { editArb, identifier, manifestArb, qualifiedKey, render, type GenManifest } from '../support/manifest-gen.js';
import { cli } from '../support/run-cli.js';

// In \`npm test\` a fixed-seed sample; \`npm run test:reliability\` runs twice as many cases of each.
const CONVERGENCE_RUNS = Number(process.env.CONVERGENCE_RUNS ?? 18);
const HOSTILE_RUNS = Number(process.env.HOSTILE_RUNS ?? 12);
const CITUS_HOSTILE_RUNS = Number(process.env.CITUS_HOSTILE_RUNS ?? 4);
const CITUS_CONVERGENCE_RUNS = Number(process.env.CITUS_CONVERGENCE_RUNS ?? 3);

async function liveOf(db: TestDb) {
  const c = new pg.Client({ connectionString: db.url });
  await c.connect();
  try {
    return await readLiveState(c);
  } finally {
    await c.end();
  }
}

function project(doc: Record<string, unknown>, files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'cm-prop-'));
  writeFileSync(join(dir, 'citus-migrate.json'), JSON.stringify(doc, null, 2));
  for (const [f, t] of Object.entries(files)) writeFileSync(join(dir, f), t);
  return dir;
}

async function applyAndCheck(db: TestDb, dir: string): Promise<void> {
  const r = await cli(
    ['apply', '-f', 'citus-migrate.json', '--database', db.url, '--auto-approve', '--allow-hazards', 'all'],
    { cwd: dir },
  );
  if (r.code !== 0)
    throw new Error(
      `apply failed (${r.code}):\n${r.stderr}\nmanifest: ${readFileSync(join(dir, 'citus-migrate.json'), 'utf8')}`,
    );
  const live = await liveOf(db);
  const again = planLive(await loadManifest(join(dir, 'citus-migrate.json')), live);
  expect([...again.transaction.steps, ...again.afterCommit].map((s) => s.summary)).toEqual([]);
}

function hostileNames(servers: () => ServerInfo | null, runs: number, citus: boolean) {
  return async () => {
    const info = servers();
    if (!info) return;
    await fc.assert(
      fc.asyncProperty(
        fc
          .record({
            schema: identifier().filter((s) => !s.startsWith('pg_')),
            table: identifier(),
            c1: identifier(),
            c2: identifier(),
            seq: identifier(),
            fn: identifier(),
            arg: identifier(),
          })
          .filter((n) => n.c1 !== n.c2 && n.table !== n.seq),
        async (n) => {
          const db = await freshDatabase(info, 'hostile');
          const fnFile = `CREATE FUNCTION ${quoteQualified({ schema: n.schema, name: n.fn })}(${quoteIdent(n.arg)} bigint) RETURNS bigint LANGUAGE plpgsql AS $$ BEGIN RETURN 1; END $$;\n`;
          const doc = {
            version: 1,
            ...(citus ? { colocation: { g: { shard_count: 2 } } } : {}),
            tables: {
              [qualifiedKey(n.schema, n.table)]: {
                ...(citus ? { distributed_by: n.c1, colocation: 'g' } : { local: true }),
                columns: { [n.c1]: { type: 'bigint', not_null: true }, [n.c2]: { type: 'text', default: "'it''s'" } },
                primary_key: [n.c1],
                indexes: [{ columns: [n.c2, n.c1] }],
              },
            },
            sequences: { [qualifiedKey(n.schema, n.seq)]: { type: 'bigint', cache: 7 } },
            routines: {
              [qualifiedKey(n.schema, n.fn)]: {
                file: 'fn.sql',
                ...(citus ? { distributed_by: n.arg, colocation: 'g' } : {}),
              },
            },
          };
          const dir = project(doc, { 'fn.sql': fnFile });
          await applyAndCheck(db, dir);
          const live = await liveOf(db);
          const adopted = await loadManifestText(liveToManifest(live), 'introspected.yaml', dir);
          expect(planLive(adopted, live).transaction.steps.map((s) => s.summary)).toEqual([]);
          expect(
            live.model.tables[quoteQualified({ schema: n.schema, name: n.table })]?.columns?.map((c) => c.name),
          ).toEqual([n.c1, n.c2]);
        },
      ),
      { numRuns: runs, seed: Number(process.env.PROPERTY_SEED ?? 20261122) },
    );
  };
}

function convergence(servers: () => ServerInfo | null, runs: number, citus: boolean) {
  return async () => {
    const info = servers();
    if (!info) return;
    await fc.assert(
      fc.asyncProperty(
        manifestArb(citus).chain((m) => fc.tuple(fc.constant(m), editArb(m, citus))),
        async ([m, edited]: [GenManifest, GenManifest]) => {
          const db = await freshDatabase(info, 'conv');
          const first = render(m);
          await applyAndCheck(db, project(first.manifest, first.files));
          const second = render(edited);
          await applyAndCheck(db, project(second.manifest, second.files));
        },
      ),
      { numRuns: runs, seed: Number(process.env.PROPERTY_SEED ?? 20261122) },
    );
  };
}

describe('properties on plain PostgreSQL', () => {
  it(
    `hostile names round-trip: created, introspected, planned empty (${HOSTILE_RUNS} cases)`,
    hostileNames(plainServers, HOSTILE_RUNS, false),
    600_000,
  );
  it(
    `random manifests and edits converge (${CONVERGENCE_RUNS} cases)`,
    convergence(plainServers, CONVERGENCE_RUNS, false),
    900_000,
  );
});

describe.skipIf(!citusServers())('properties on Citus', () => {
  it(
    `hostile names round-trip with distribution and delegation (${CITUS_HOSTILE_RUNS} cases)`,
    hostileNames(citusServers, CITUS_HOSTILE_RUNS, true),
    600_000,
  );
  it(
    `random distributed manifests and edits converge (${CITUS_CONVERGENCE_RUNS} cases)`,
    convergence(citusServers, CITUS_CONVERGENCE_RUNS, true),
    900_000,
  );
});
