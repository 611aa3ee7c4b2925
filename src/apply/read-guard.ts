// A plan is computed from a catalog read made before approval, the cluster guard and the history
// row; another session may change an object in between (a column's type widened and filled with
// values the planned ALTER would round). Inside the transaction, before its first step, the guard
// locks the relations the steps change (SHARE UPDATE EXCLUSIVE: it conflicts with every DDL on
// them, and with no read or write), then checks the read: when the catalog changed at all since
// just before the plan's read (catalog-mark.ts, a fraction of a read's cost), it reads the catalog
// again and compares the hashes of what the steps change and depend on with the read the plan came
// from (objectHashes, as a saved plan's are compared): a difference rolls back with exit 5, naming
// the objects that changed. On Citus DDL on a distributed table goes through the coordinator, so a
// lock on its table there holds it. Types, routines, sequences and views are not locked (LOCK
// TABLE takes no type, routine or sequence, and a view's lock takes its base tables too, with the
// view owner's rights: a lower role's view would make the apply fail, and tables the plan does not
// change would be locked): their hashes are checked in the transaction, right before the steps.
import type { Queryable } from '../db/connect.js';
import { CmError, EXIT } from '../errors.js';
import { queryCatalog } from '../introspect/catalog-query.js';
import { validateCatalog } from '../introspect/read.js';
import { objectHashes } from '../introspect/to-model.js';
import type { LiveState } from '../model/live-state.js';
import { refId, relationRef, routineRef, sequenceRef, tableRef, typeRef } from '../model/object-ref.js';
import type { ClusterModel } from '../model/types.js';
import type { PlanDocument } from '../plan/plan.js';
import { chainKeysOf, needsOf } from '../plan/steps/step-names.js';
import { quoteQualified } from '../sql/quote.js';
import { changedSince, type CatalogMark } from './catalog-mark.js';
import { describeChanges, listed } from './saved-plan.js';

/** What the transaction checks before its first step: see the file comment. */
export interface ReadGuard {
  /** Keys of objectHashes whose hashes must be the plan's: what the steps change and need. */
  readonly keys: readonly string[];
  /** The LOCK TABLE statement (none when no lockable relation exists yet). */
  readonly lock: readonly string[];
  /** The hashes the plan was computed from. */
  readonly before: Readonly<Record<string, string>>;
  /** Whether the catalog query's Citus part applies (false: the plain query at once). */
  readonly citus: boolean;
  /**
   * The catalog as it was before the plan's read (catalog-mark.ts): unchanged in the transaction,
   * there is nothing to read again. Absent, or `readAgain`, the catalog is read again always.
   */
  readonly mark?: CatalogMark;
  /** Some hash depends on more than the catalog (a sequence's use, its caches on the workers, columnar options). */
  readonly readAgain: boolean;
}

/** Names ("relation app.v", "type app.e", "routine app.f") as the keys of objectHashes that hold them. */
function nameIndex(live: LiveState): Map<string, string[]> {
  const index = new Map<string, string[]>();
  const add = (name: string, key: string): void => {
    const keys = index.get(name);
    if (keys === undefined) index.set(name, [key]);
    else if (!keys.includes(key)) keys.push(key);
  };
  for (const id of Object.keys(live.model.tables)) {
    add(relationRef(id), tableRef(id));
    add(typeRef(id), tableRef(id)); // its row type
  }
  for (const o of Object.values(live.model.objects)) for (const p of o.provides) add(p, o.id);
  // A routine is needed by name ("routine app.f") and hashed by signature ("routine app.f(integer)").
  for (const r of Object.values(live.model.routines)) add(routineRef(r.qname), routineRef(r.id));
  return index;
}

/**
 * What the transaction must check for this plan, or undefined when none of its steps changes or
 * needs an object that existed when it was read (a plan of creates only: a name another session
 * took meanwhile fails the CREATE itself). Pure.
 */
export function readGuard(
  plan: PlanDocument,
  live: LiveState,
  desired: ClusterModel,
  mark?: CatalogMark,
): ReadGuard | undefined {
  const index = nameIndex(live);
  const keys = new Set<string>();
  const changed = new Set<string>();
  // A name no object of the read holds is left out ("column app.t.x" of a view comes with its
  // "relation app.t"); the steps' own objects are kept, so one created meanwhile is a change.
  const addName = (name: string): void => {
    for (const k of index.get(name) ?? (name in live.objects ? [name] : [])) keys.add(k);
  };
  for (const step of [...plan.transaction.steps, ...plan.afterCommit]) {
    changed.add(step.object);
    keys.add(step.object);
    for (const k of chainKeysOf(step.step)) addName(k);
    const needs = needsOf(step.step, desired);
    for (const n of [...needs.hard, ...needs.soft]) addName(n);
    const o = live.model.objects[step.object];
    if (o) for (const n of [...o.deps, ...(o.parent !== undefined ? [o.parent] : [])]) addName(n);
  }
  // A table's serial and identity sequences go with it (a plan RESTARTs one never used).
  for (const s of live.doc.sequences)
    if (s.ownedBy !== null && keys.has(tableRef({ schema: s.ownedBy.schema, name: s.ownedBy.table })))
      keys.add(sequenceRef(s));
  const existing = [...keys].filter((k) => k in live.objects).sort();
  if (existing.length === 0) return undefined;
  return {
    keys: [...keys].sort(),
    lock: lockStatement(changed, live),
    before: live.objects,
    citus: live.citus,
    ...(mark ? { mark } : {}),
    readAgain: beyondCatalog(keys, live),
  };
}

/**
 * Whether a key's hash depends on what changes without a catalog write: an unused identity
 * sequence (its first nextval), a distributed sequence (its caches on the workers), a columnar
 * table (citus_columnar's options table is outside pg_catalog).
 */
function beyondCatalog(keys: ReadonlySet<string>, live: LiveState): boolean {
  const sequences = live.doc.sequences.some(
    (s) => (s.lastValue === 'unused' || s.distributed) && keys.has(sequenceRef(s)),
  );
  return sequences || live.doc.tables.some((t) => t.columnarOptions !== undefined && keys.has(tableRef(t)));
}

/** LOCK TABLE … IN SHARE UPDATE EXCLUSIVE MODE of the existing tables the steps change (or whose parts they change). */
function lockStatement(changed: ReadonlySet<string>, live: LiveState): string[] {
  const relations = new Set<string>();
  const relation = (ref: string): void => {
    const id = refId(ref, 'table') ?? refId(ref, 'relation');
    if (id === undefined) return;
    const table = live.model.tables[id];
    if (table) relations.add(quoteQualified(table.qname));
  };
  for (const ref of changed) {
    relation(ref);
    const o = live.model.objects[ref];
    if (!o) continue;
    // A trigger, index, constraint, policy… is changed under a lock on its table.
    if (o.parent !== undefined) relation(o.parent);
  }
  // Sorted: two applies lock in the same order (LOCK TABLE of a partitioned table takes its partitions too).
  const list = [...relations].sort();
  return list.length === 0 ? [] : [`LOCK TABLE ${list.join(', ')} IN SHARE UPDATE EXCLUSIVE MODE`];
}

/** Throws exit 5 when an object the plan was computed from differs from what was read again. */
export function refuseChangedRead(guard: ReadGuard, after: Readonly<Record<string, string>>): void {
  const pick = (m: Readonly<Record<string, string>>): Record<string, string> =>
    Object.fromEntries(guard.keys.filter((k) => k in m).map((k) => [k, m[k]!]));
  const changes = describeChanges(pick(guard.before), pick(after));
  if (changes.length > 0) throw staleRead(changes);
}

const staleRead = (changes: readonly string[]): CmError =>
  new CmError(
    `stale plan: the cluster changed after the plan was computed, before its transaction; rolled back, nothing was run\n${listed(changes)}\n  plan again and review it`,
    'stale_plan',
    EXIT.stalePlan,
    { changes },
  );

/** Names the catalog query in a failure's report (its text is long and not the user's). */
const CATALOG_READ = '-- the catalog query, again: what the plan was computed from';
const CATALOG_MARK = '-- whether the catalog changed since the plan read it (catalog-mark.ts)';

/**
 * Inside the transaction, before its first step: takes guard.lock, reads the catalog again and
 * refuses a change (exit 5). A relation gone before its LOCK is a change too. The read runs in a
 * savepoint rolled back after it, so the locks it takes (the catalog query opens every table
 * with a column default; pg_sequence_last_value locks identity sequences) are not kept until
 * COMMIT; guard.lock's, taken before it, are. `running` is told each statement as it starts.
 */
export async function checkRead(db: Queryable, guard: ReadGuard, running: (sql: string) => void): Promise<void> {
  for (const sql of guard.lock) {
    running(sql);
    try {
      await db.query(sql);
    } catch (e) {
      // 42P01 undefined_table: dropped (or renamed) by another session since the read.
      if ((e as { code?: string }).code !== '42P01') throw e;
      throw staleRead([`gone: ${(e as Error).message}`]);
    }
  }
  if (guard.mark && !guard.readAgain) {
    running(CATALOG_MARK);
    if (!(await changedSince(db, guard.mark))) return;
  }
  running(CATALOG_READ);
  await db.query('SAVEPOINT citus_migrate_read');
  const answer = await queryCatalog(db, undefined, guard.citus ? {} : { citus: false });
  const { doc } = await validateCatalog(db, answer);
  await db.query('ROLLBACK TO SAVEPOINT citus_migrate_read; RELEASE SAVEPOINT citus_migrate_read');
  refuseChangedRead(guard, objectHashes(doc));
}
