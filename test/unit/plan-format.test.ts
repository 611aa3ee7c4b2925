// What each format says first: problems before anything, "No changes" only when nothing differs,
// and problems and unmanaged objects printed even when there is no step.
import { describe, expect, it } from 'vitest';
import { planLive } from '../../src/plan/from-manifest.js';
import { formatPlan } from '../../src/format/index.js';
import { catalogToModel } from '../../src/introspect/to-model.js';
import { loadManifest } from '../../src/manifest/load.js';
import { scenarios } from '../support/scenarios.js';

async function planOf(name: string) {
  const s = scenarios().find((x) => x.name === name)!;
  return planLive(await loadManifest(s.manifest), catalogToModel(s.fixture!), 'm.yaml');
}

describe('plan formats', () => {
  it('opens with the problems, never "No changes", when there are problems', async () => {
    const plan = await planOf('12-no-columns-missing-table');
    const text = formatPlan(plan, 'text').split('\n');
    expect(text[1]).toBe('1 problem: the plan cannot be applied until it is fixed.');
    expect(text.join('\n')).not.toContain('No changes');
    const sql = formatPlan(plan, 'sql');
    expect(sql).toContain('-- 1 problem: the plan cannot be applied until it is fixed.\n');
    expect(sql).toContain(
      '-- problem: public.ghost: is declared without columns (created elsewhere) but does not exist\n',
    );
    expect(sql).not.toMatch(/no changes/i);
    expect(formatPlan(plan, 'markdown')).toContain('**1 problem: the plan cannot be applied until it is fixed.**');
  });

  it('names a distribution column the cluster does not have, with the steps planned so far', async () => {
    const plan = await planOf('14-no-columns-unknown-column');
    expect(plan.problems.map((p) => p.code)).toEqual(['unknown_column', 'unknown_column']);
    expect(formatPlan(plan, 'text').split('\n')[1]).toBe(
      '2 problems: the plan cannot be applied until they are fixed (5 steps planned so far).',
    );
  });

  it('names unmanaged objects in every format when there is nothing to apply', async () => {
    const plan = await planOf('11-converged');
    const headline =
      'No changes to what the manifest declares; the cluster also holds 1 object the manifest does not declare (unmanaged, left alone).';
    expect(formatPlan(plan, 'text').split('\n')[1]).toBe(headline);
    expect(formatPlan(plan, 'sql')).toContain(
      `-- ${headline}\n\n-- no steps\n\n-- unmanaged (left alone): table public.extra\n`,
    );
    expect(formatPlan(plan, 'markdown')).toContain('- table public.extra');
  });
});
