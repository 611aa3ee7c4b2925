// A comment on a column or an index that this plan drops goes with it: PostgreSQL removes the
// comment with its object, and the prune's `COMMENT ON … IS NULL`, ordered after the drop, would
// fail ("column … does not exist"). Such drops are left out of the plan.
import { idOf } from '../../model/types.js';
import { quoteIdent } from '../../sql/quote.js';
import type { Step } from '../steps/steps.js';

/** `steps` without the drops of comments whose column or index another step drops. */
export function withoutOrphanedCommentDrops(steps: readonly Step[]): Step[] {
  const gone = new Set<string>();
  for (const s of steps) {
    if (s.kind === 'drop_column') gone.add(`comment on column ${idOf(s.table)}.${quoteIdent(s.column)}`);
    if (s.kind === 'drop_index' && !s.recreate) gone.add(`comment on index ${idOf(s.index)}`);
    if (s.kind === 'drop_object' && s.objectKind === 'index' && s.reason === 'prune')
      gone.add(`comment on ${s.object}`);
  }
  return steps.filter((s) => !(s.kind === 'drop_object' && s.objectKind === 'comment' && gone.has(s.object)));
}
