// When two parts of the model are the same thing: the one set of comparisons the diff and the
// manifest rules use.
import type { Deferral, ForeignKey, Index } from './types.js';

/** Same items in the same order. */
export const sameList = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((x, i) => x === b[i]);

/** Same items in any order. */
export const sameSet = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((x) => b.includes(x));

/** Same method, uniqueness and columns (the name does not matter). */
export const sameIndex = (a: Index, b: Index): boolean =>
  a.unique === b.unique &&
  a.using === b.using &&
  sameList(a.columns, b.columns) &&
  // A name matters when both sides have one (a declared unnamed index matches by definition).
  (a.name === undefined || b.name === undefined || a.name === b.name);

/** Same columns, target and actions (the name does not matter). */
export function sameFk(a: ForeignKey, b: ForeignKey): boolean {
  return (
    a.refTable === b.refTable &&
    sameList(a.columns, b.columns) &&
    sameList(a.refColumns, b.refColumns) &&
    (a.onDelete ?? 'no action') === (b.onDelete ?? 'no action') &&
    (a.onUpdate ?? 'no action') === (b.onUpdate ?? 'no action') &&
    Boolean(a.matchFull) === Boolean(b.matchFull)
  );
}

/** Same DEFERRABLE / INITIALLY DEFERRED (INITIALLY DEFERRED implies DEFERRABLE). */
export const sameDeferral = (a: Deferral, b: Deferral): boolean =>
  Boolean(a.deferrable || a.initiallyDeferred) === Boolean(b.deferrable || b.initiallyDeferred) &&
  Boolean(a.initiallyDeferred) === Boolean(b.initiallyDeferred);
