// The test every scenario gets, on a real Citus coordinator + 2 workers: the plan from the pure
// diff (over the recorded introspection) equals the plan against the live cluster, `apply`
// refuses its hazards without their flag and then applies it, and planning again gives nothing
// (as does planning the introspected manifest). The HammerDB test covers psql -f of a plan.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { planLive } from '../../src/plan/from-manifest.js';
import { planBodySql } from '../../src/format/plan-sql.js';
import { readLiveState } from '../../src/own/live-state.js';
import { catalogToModel } from '../../src/introspect/to-model.js';
import { loadManifest, loadManifestText } from '../../src/manifest/load.js';
import { liveToProject } from '../../src/introspect/to-manifest.js';
import { citusServers, freshDatabase } from '../support/db.js';
import { cli } from '../support/run-cli.js';
import { stableJson } from '../../src/util/stable-json.js';
import { normalizeFixture, scenarios } from '../support/scenarios.js';

const citus = citusServers();

async function live(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await readLiveState(client);
  } finally {
    await client.end();
  }
}

describe.skipIf(!citus)('scenarios on Citus', () => {
  it.each(scenarios().map((s) => [s.name, s] as const))('%s', async (_name, s) => {
    const db = await freshDatabase(citus!, 'sc');
    if (existsSync(s.beforeSql)) {
      const r = db.psql({ file: s.beforeSql });
      expect(r.stderr.split('\n').filter((l) => l.includes('ERROR'))).toEqual([]);
    }
    const manifest = await loadManifest(s.manifest);
    const state = await live(db.url);
    const normalized = normalizeFixture(state.doc);
    if (process.env.UPDATE_FIXTURES || !s.fixture) {
      if (process.env.CI)
        throw new Error(`${s.fixtureFile} is missing: record it with UPDATE_FIXTURES=1 on a machine with Citus`);
      writeFileSync(s.fixtureFile, `${JSON.stringify(normalized, null, 2)}\n`);
    } else {
      expect(normalized).toEqual(s.fixture);
    }
    const livePlan = planLive(manifest, state);
    const purePlan = planLive(manifest, catalogToModel(normalized));
    expect(planBodySql(livePlan)).toBe(planBodySql(purePlan));
    // expected.sql is a hand-reviewed spec: compared, never rewritten from output (not a snapshot).
    expect(planBodySql(livePlan)).toBe(readFileSync(s.expectedFile, 'utf8'));

    if (livePlan.problems.length === 0 && livePlan.changes) {
      // Hazards are refused without their flag, and nothing runs; then apply with them allowed.
      if (livePlan.hazards.length > 0) {
        const before = stableJson(normalizeFixture((await live(db.url)).doc));
        const refused = await cli(['apply', '-f', s.manifest, '--database', db.url, '--auto-approve']);
        expect(refused.code).toBe(4);
        for (const h of livePlan.hazards) expect(refused.stderr).toContain(`  ${h}: step`);
        expect(stableJson(normalizeFixture((await live(db.url)).doc))).toBe(before);
      }
      const r = await cli([
        'apply',
        '-f',
        s.manifest,
        '--database',
        db.url,
        '--auto-approve',
        '--allow-hazards',
        livePlan.hazards.join(',') || 'all',
      ]);
      expect(r.stderr).not.toContain('error');
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('verified: planning again is empty');
    }
    if (livePlan.problems.length > 0) return; // a refusal scenario: nothing to apply
    const after = await live(db.url);
    const again = planLive(manifest, after);
    expect(again.transaction.steps.map((x) => x.summary)).toEqual([]);
    expect(again.afterCommit.map((x) => x.summary)).toEqual([]);

    // introspect -> plan is empty: the cluster adopted as a manifest (with its SQL and routine
    // files, as introspect --out writes them) plans nothing.
    const project = liveToProject(after, { files: true });
    const dir = mkdtempSync(join(tmpdir(), 'cm-adopted-'));
    for (const [rel, text] of Object.entries(project.files)) {
      mkdirSync(dirname(join(dir, rel)), { recursive: true });
      writeFileSync(join(dir, rel), text);
    }
    const adopted = await loadManifestText(project.manifest, 'introspected.yaml', dir);
    const adoptedPlan = planLive(adopted, after);
    expect(adoptedPlan.transaction.steps.map((x) => x.summary)).toEqual([]);
    expect(adoptedPlan.unmanaged).toEqual([]);
  });
});
