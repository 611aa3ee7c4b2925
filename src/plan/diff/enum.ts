// An enum's change: labels added in place (ALTER TYPE … ADD VALUE … BEFORE); removing or
// reordering labels is a problem, PostgreSQL cannot do it.
import type { SqlObject } from '../../model/types.js';
import { quoteLiteral } from '../../sql/quote.js';
import type { Step } from '../steps/steps.js';

/** The steps that add an enum's new labels, or why it cannot be changed in place. */
export function enumSteps(d: SqlObject, a: SqlObject): Step[] | string {
  const want = d.labels ?? [];
  const have = a.labels ?? [];
  const missing = have.filter((l) => !want.includes(l));
  if (missing.length > 0)
    return `drops label${missing.length === 1 ? '' : 's'} ${missing.map((l) => JSON.stringify(l)).join(', ')}: PostgreSQL cannot remove a value from an enum (create a new type and move the columns to it)`;
  const kept = want.filter((l) => have.includes(l));
  if (kept.join('\u0000') !== have.join('\u0000'))
    return "reorders existing labels: PostgreSQL cannot reorder an enum's values";
  const steps: Step[] = [];
  const now = [...have];
  for (let i = 0; i < want.length; i++) {
    const l = want[i]!;
    if (now.includes(l)) continue;
    const next = want.slice(i + 1).find((x) => now.includes(x));
    const where = next !== undefined ? ` BEFORE ${quoteLiteral(next)}` : '';
    steps.push({
      kind: 'alter_object',
      object: d.id,
      objectKind: 'enum',
      statements: [`ALTER TYPE ${d.name} ADD VALUE ${quoteLiteral(l)}${where}`],
      what: `add value ${l}`,
    });
    now.splice(next !== undefined ? now.indexOf(next) : now.length, 0, l);
  }
  return steps;
}
