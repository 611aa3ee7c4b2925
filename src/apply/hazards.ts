// Which hazards an apply may run (--allow-hazards), and the refusal that names each one's steps.
import { CmError, EXIT, UsageError } from '../errors.js';
import type { PlanDocument } from '../plan/plan.js';
import { HAZARDS, type Hazard } from '../plan/steps/steps.js';

/** Parses --allow-hazards (comma-separated names, or all). */
export function parseHazards(list: string | undefined): Set<Hazard> {
  const out = new Set<Hazard>();
  for (const h of (list ?? '')
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean)) {
    if (h === 'all') {
      HAZARDS.forEach((x) => out.add(x));
      continue;
    }
    if (!(HAZARDS as readonly string[]).includes(h))
      throw new UsageError(`--allow-hazards: unknown hazard ${JSON.stringify(h)} (known: ${HAZARDS.join(', ')}, all)`);
    out.add(h as Hazard);
  }
  return out;
}

/** Throws exit 4 naming every hazard of the plan that is not allowed, with its steps. */
export function refuseHazards(plan: PlanDocument, allowed: ReadonlySet<Hazard>): void {
  const steps = [...plan.transaction.steps, ...plan.afterCommit];
  const refused = plan.hazards.filter((h) => !allowed.has(h));
  if (refused.length === 0) return;
  const lines = refused.map(
    (h) =>
      `  ${h}: ${steps
        .filter((s) => s.hazards.includes(h))
        .map((s) => `step ${s.index} (${s.summary})`)
        .join('; ')}`,
  );
  throw new CmError(
    `refusing to apply: the plan has hazards not allowed with --allow-hazards; nothing was run\n${lines.join('\n')}\n  allow them with --allow-hazards ${refused.join(',')}`,
    'refused_hazard',
    EXIT.refusedHazard,
    { hazards: refused },
  );
}
