// Every step of a plan names the object it changes, as `unmanaged` and `ignore:` name objects:
// checked on the offline plans of the shipped manifests (hostile names included).
import { describe, expect, it } from 'vitest';
import { loadManifest } from '../../src/manifest/load.js';
import { planOffline } from '../../src/plan/from-manifest.js';
import { quoteIdent } from '../../src/sql/quote.js';

const MANIFESTS = [
  'templates/saas/citus-migrate.yaml',
  'templates/pgbench/citus-migrate.yaml',
  'templates/hammerdb/citus-migrate.yaml',
  'examples/tpcc/citus-migrate.yaml',
  'examples/hostile-names/citus-migrate.yaml',
];

describe('the object of each step', () => {
  it.each(MANIFESTS)('%s: every step names a declared object, and a table step is about that table', async (file) => {
    const m = await loadManifest(file);
    const declared = new Set([
      ...Object.keys(m.desired.tables).map((id) => `table ${id}`),
      ...Object.keys(m.desired.sequences).map((id) => `sequence ${id}`),
      ...Object.keys(m.desired.routines).map((id) => `routine ${id}`),
      ...m.desired.schemas.map((s) => `schema ${quoteIdent(s)}`),
      ...Object.keys(m.desired.objects),
    ]);
    const plan = planOffline(m, file, { now: new Date('2026-01-01T00:00:00Z') });
    const steps = [...plan.transaction.steps, ...plan.afterCommit];
    expect(steps.length).toBeGreaterThan(0);
    for (const s of steps) {
      expect(declared, `${s.kind}: ${s.object}`).toContain(s.object);
      if (s.object.startsWith('table ')) {
        const t = m.desired.tables[s.object.slice('table '.length)]!;
        expect(s.sql.join('\n'), s.kind).toContain(t.qname.name.replace(/'/g, "''").replace(/"/g, '""'));
      }
    }
  });
});
