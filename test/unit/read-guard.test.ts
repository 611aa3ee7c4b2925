// The transaction's check of the read a plan was computed from (apply/read-guard.ts): which
// relations it locks, which objects' hashes it compares, and what a difference says.
import { describe, expect, it } from 'vitest';
import { checkRead, readGuard, refuseChangedRead } from '../../src/apply/read-guard.js';
import { CmError } from '../../src/errors.js';
import { catalogToModel } from '../../src/introspect/to-model.js';
import { loadManifest, loadManifestText } from '../../src/manifest/load.js';
import { planLive } from '../../src/plan/from-manifest.js';
import { loadParser } from '../../src/sql/pg-parse.js';
import { scenarios } from '../support/scenarios.js';

const scenario = (name: string) => scenarios().find((s) => s.name === name)!;

describe('readGuard', () => {
  it("locks the tables the steps change (parts by their table; views are not locked: their lock takes their base tables with their owner's rights), and compares what they change and need", async () => {
    await loadParser();
    // 15-sql-objects: views over t dropped and created again, t's column type, its comment, an index, the enum.
    const s = scenario('15-sql-objects');
    const live = catalogToModel(s.fixture!);
    const m = await loadManifest(s.manifest);
    const plan = planLive(m, live);
    const guard = readGuard(plan, live, m.desired)!;
    expect(guard.lock).toEqual(['LOCK TABLE public.t IN SHARE UPDATE EXCLUSIVE MODE']);
    expect(guard.keys).toEqual([
      'comment on table public.t',
      'enum public.mood',
      'index public.t_score',
      'table public.t',
      'view public.scores',
      'view public.top_scores',
    ]);
    expect(guard.citus).toBe(true);
  });

  it('is not needed by a plan that only creates (nothing it changes or needs existed)', async () => {
    await loadParser();
    const live = catalogToModel(scenario('01-empty-cluster').fixture!);
    const m = await loadManifestText(
      'version: 1\ntables:\n  t:\n    local: true\n    columns: { id: integer }\n',
      'citus-migrate.yaml',
      '.',
    );
    expect(readGuard(planLive(m, live), live, m.desired)).toBeUndefined();
  });

  it('refuses with exit 5 and names what changed, added or went among its keys only', () => {
    const guard = {
      keys: ['table public.a', 'table public.b', 'routine public.f(integer)'],
      lock: [],
      before: { 'table public.a': '1', 'table public.b': '2', 'table public.z': '9' },
      citus: false,
      readAgain: false,
    };
    expect(() => refuseChangedRead(guard, { ...guard.before, 'table public.z': 'other' })).not.toThrow();
    const e = (() => {
      try {
        refuseChangedRead(guard, { 'table public.a': 'x', 'routine public.f(integer)': '3' });
      } catch (x) {
        return x as CmError;
      }
    })()!;
    expect(e).toBeInstanceOf(CmError);
    expect([e.code, e.exitCode]).toEqual(['stale_plan', 5]);
    expect(e.message).toBe(
      'stale plan: the cluster changed after the plan was computed, before its transaction; rolled back, nothing was run\n  changed table public.a\n  added routine public.f(integer)\n  removed table public.b\n  plan again and review it',
    );
  });

  it('reads the catalog again only when the mark says it changed, or a hash depends on more than the catalog', async () => {
    const mark = { catalogs: ['pg_class'], since: '700', state: ['10:abc'] };
    const run = async (state: string, readAgain: boolean): Promise<string[]> => {
      const sent: string[] = [];
      const db = {
        query: async (text: string) => {
          const mark = text.startsWith('SELECT ARRAY[');
          sent.push(mark ? 'mark' : text.split(' IN ')[0]!);
          if (mark) return { rows: [{ state: [state] }] };
          // The catalog read itself is the integration tests' (security-stale.test.ts).
          if (text.startsWith('SAVEPOINT')) throw new Error('stop here');
          return { rows: [] };
        },
      };
      const guard = {
        keys: [],
        lock: ['LOCK TABLE public.t IN SHARE UPDATE EXCLUSIVE MODE'],
        before: {},
        citus: false,
        mark,
        readAgain,
      };
      await checkRead(db as never, guard, () => undefined).catch(() => undefined);
      return sent;
    };
    expect(await run('10:abc', false)).toEqual(['LOCK TABLE public.t', 'mark']);
    expect(await run('11:abc', false)).toEqual(['LOCK TABLE public.t', 'mark', 'SAVEPOINT citus_migrate_read']);
    expect(await run('10:abc', true)).toEqual(['LOCK TABLE public.t', 'SAVEPOINT citus_migrate_read']);
  });
});
