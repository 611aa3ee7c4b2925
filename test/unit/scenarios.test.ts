// Without any server: each scenario's plan computed by the pure diff from its recorded
// introspection (taken from a real Citus cluster) is the expected plan.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { planLive } from '../../src/plan/from-manifest.js';
import { planBodySql } from '../../src/format/plan-sql.js';
import { catalogToModel } from '../../src/introspect/to-model.js';
import { loadManifest } from '../../src/manifest/load.js';
import { loadParser } from '../../src/sql/pg-parse.js';
import { scenarios } from '../support/scenarios.js';

const recorded = scenarios().filter((s) => s.fixture);

describe('scenarios from recorded introspection', () => {
  it('has recorded scenarios', () => expect(recorded.length).toBeGreaterThan(0));
  it.each(recorded.map((s) => [s.name, s] as const))('%s', async (_name, s) => {
    await loadParser();
    const plan = planLive(await loadManifest(s.manifest), catalogToModel(s.fixture!));
    // expected.sql is a hand-reviewed spec: compared, never rewritten from output (not a snapshot).
    expect(planBodySql(plan)).toBe(readFileSync(s.expectedFile, 'utf8'));
  });
});
