// A column goes after what the plan drops of its table in the same phase (its indexes, keys, and
// the indexes, constraints and triggers of sql: files it prunes): DROP COLUMN takes the indexes
// and constraints that use the column with it, and their own DROP after it failed (42704,
// every time: a revert of "add column + index" could only be applied by hand). Pure.
import { refId } from '../../model/object-ref.js';
import { phaseOf, tableOf } from '../steps/step-spec.js';
import type { Step } from '../steps/steps.js';

/** `steps` in phase order, each drop_column moved after the last other step of its table and phase. */
export function columnDropsLast(steps: readonly Step[]): Step[] {
  const key = (s: Step): string | undefined => {
    const t = tableOf(s) ?? (s.kind === 'drop_object' && s.parent ? refId(s.parent, 'relation') : undefined);
    return t === undefined ? undefined : `${phaseOf(s)} ${t}`;
  };
  const lastOther = new Map<string, number>();
  steps.forEach((s, i) => {
    const k = key(s);
    if (k !== undefined && s.kind !== 'drop_column') lastOther.set(k, i);
  });
  const held = new Map<string, Step[]>();
  const out: Step[] = [];
  steps.forEach((s, i) => {
    const k = key(s);
    if (k !== undefined && s.kind === 'drop_column' && (lastOther.get(k) ?? -1) > i) {
      held.set(k, [...(held.get(k) ?? []), s]);
      return;
    }
    out.push(s);
    if (k !== undefined && lastOther.get(k) === i && held.has(k)) {
      out.push(...held.get(k)!);
      held.delete(k);
    }
  });
  return out;
}
