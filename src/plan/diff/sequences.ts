// Sequences of the manifest against the cluster's: created, altered to what the manifest declares
// (type, increment, bounds, start, cache, cycle: both sides leave PostgreSQL's defaults out, so
// they compare exactly), and their OWNED BY column set. A distributed sequence can only have its
// cache changed (node by node); anything else is a problem.
import { isSerialsOwn } from '../../model/serial-sequence.js';
import { effectiveBounds } from '../../model/sequence-bounds.js';
import type { ClusterModel, Sequence } from '../../model/types.js';
import type { DiffProblem } from '../problem.js';
import type { Step } from '../steps/steps.js';

const sameOwner = (a: Sequence['ownedBy'], b: Sequence['ownedBy']): boolean =>
  a?.table === b?.table && a?.column === b?.column;

function sameSequenceOptions(a: Sequence, b: Sequence): boolean {
  return (
    a.cache === b.cache &&
    a.cycle === b.cycle &&
    a.type === b.type &&
    a.increment === b.increment &&
    a.start === b.start &&
    a.min === b.min &&
    a.max === b.max
  );
}

/** A serial column's sequence as CREATE TABLE (or ADD COLUMN) makes it. */
const asSerialMakesIt = (s: Sequence): Sequence => ({
  id: s.id,
  qname: s.qname,
  type: s.type,
  cache: '1',
  cycle: false,
});

function ownerStep(s: Sequence, desired: ClusterModel): Step {
  const t = s.ownedBy ? desired.tables[s.ownedBy.table] : undefined;
  return {
    kind: 'set_sequence_owner',
    sequence: s.qname,
    ...(s.ownedBy && t ? { owner: { table: t.qname, column: s.ownedBy.column } } : {}),
  };
}

/** Whether the table of the column that owns it is unlogged (undefined: no column owns it). */
const ownerUnlogged = (s: Sequence, desired: ClusterModel): boolean | undefined => {
  const t = s.ownedBy ? desired.tables[s.ownedBy.table] : undefined;
  return t ? Boolean(t.unlogged) : undefined;
};

/** Whether a sequence a column owns is unlogged: its own 'sequence persistence' object says, else its table. */
const ownedUnlogged = (a: Sequence, actual: ClusterModel): boolean => {
  const own = actual.objects[`sequence persistence ${a.id}`]?.create[0];
  return own !== undefined ? own.endsWith(' SET UNLOGGED') : Boolean(ownerUnlogged(a, actual));
};

/** Whether START or a bound ends elsewhere (a new type or increment moves default bounds too). */
function boundsMove(to: Sequence, from: Sequence): boolean {
  const [a, b] = [effectiveBounds(to), effectiveBounds(from)];
  return a.start !== b.start || a.min !== b.min || a.max !== b.max;
}

/** Steps for the manifest's sequences; `created`: the tables this plan creates. */
export function sequenceSteps(
  desired: ClusterModel,
  actual: ClusterModel,
  created: ReadonlySet<string>,
  problems: DiffProblem[],
): Step[] {
  const steps: Step[] = [];
  for (const s of Object.values(desired.sequences)) {
    const a = actual.sequences[s.id];
    if (!a) {
      // A serial column's undeclared sequence is made by its table with exactly these options.
      if (s.implicit) continue;
      if (isSerialsOwn(s, desired)) {
        const o = s.ownedBy!;
        const made = created.has(o.table) || !actual.tables[o.table]?.columns?.some((c) => c.name === o.column);
        const from = asSerialMakesIt(s);
        if (made) {
          // RESTART: its value is still the one CREATE TABLE gave it (1), which new bounds may exclude.
          if (!sameSequenceOptions(s, from))
            steps.push({
              kind: 'alter_sequence',
              sequence: s,
              from,
              ...(boundsMove(s, from) ? { restart: true } : {}),
            });
        } else
          problems.push({
            code: 'missing_sequence',
            object: s.id,
            message: `belongs to a serial column of ${o.table} but does not exist`,
          });
        continue;
      }
      // One a column owns is logged or not as its table is (ALTER TABLE … SET LOGGED / UNLOGGED
      // sets it so): made so, a 'sequence persistence' object of the sql: files says otherwise after.
      steps.push({ kind: 'create_sequence', sequence: { ...s, unlogged: ownerUnlogged(s, desired) ?? s.unlogged } });
      if (s.ownedBy) steps.push(ownerStep(s, desired));
      continue;
    }
    // An unowned one a column comes to own: as its table is; an owned one no column is to own: as declared.
    const follows = !a.ownedBy ? ownerUnlogged(s, desired) : undefined;
    if (follows !== undefined && follows !== Boolean(a.unlogged))
      steps.push({ kind: 'alter_sequence_persistence', sequence: s.qname, unlogged: follows });
    if (!s.ownedBy && a.ownedBy && ownedUnlogged(a, actual) !== Boolean(s.unlogged))
      steps.push({ kind: 'alter_sequence_persistence', sequence: s.qname, unlogged: Boolean(s.unlogged) });
    if (!s.ownedBy && !a.ownedBy && Boolean(s.unlogged) !== Boolean(a.unlogged))
      steps.push({ kind: 'alter_sequence_persistence', sequence: s.qname, unlogged: Boolean(s.unlogged) });
    const ownerDiffers = !isSerialsOwn(s, desired) && !sameOwner(s.ownedBy, a.ownedBy);
    // A worker that has another cache or could not be read (it was down when the cache was set).
    if (sameSequenceOptions(s, a) && !(a.distributed && a.workersDiffer) && !ownerDiffers) continue;
    if (!a.distributed) {
      if (!sameSequenceOptions(s, a)) steps.push({ kind: 'alter_sequence', sequence: s, from: a });
      if (ownerDiffers) steps.push(ownerStep(s, desired));
      continue;
    }
    // "Altering a distributed sequence is currently not supported": only the cache can be
    // changed, node by node with DDL propagation off, outside the transaction.
    if (sameSequenceOptions(s, { ...a, cache: s.cache }) && !ownerDiffers)
      steps.push({ kind: 'alter_sequence_everywhere', sequence: s });
    else
      problems.push({
        code: 'distributed_sequence_change',
        object: s.id,
        message: `is distributed: Citus refuses to change its type, start, increment, bounds, cycle or owner (only its cache can be changed, node by node)`,
      });
  }
  return steps;
}
