// Primary keys and unique constraints of a table that exists: added when missing, renamed when
// the manifest names one the cluster holds under another name (a name not declared is not
// compared), dropped and added again when their columns change under the same name or their index
// is not valid, and replaced when only DEFERRABLE / INITIALLY DEFERRED differ.
import { defaultKeyName } from '../../model/key-names.js';
import { sameDeferral, sameList, sameSet } from '../../model/same.js';
import type { ClusterModel, Key, Table } from '../../model/types.js';
import type { DiffProblem } from '../problem.js';
import type { Step } from '../steps/steps.js';

/** RENAME CONSTRAINT when the manifest declares a name the actual key does not have. */
function rename(t: Table, want: Key, have: Key): Step[] {
  return want.name !== undefined && have.name !== undefined && want.name !== have.name
    ? [{ kind: 'rename_key', table: t.qname, from: have.name, to: want.name }]
    : [];
}

/** The foreign keys of the cluster that reference key `k` of table `a` (they hold on to its index). */
function referencing(actual: ClusterModel, a: Table, k: Key): string[] {
  return Object.values(actual.tables).flatMap((x) =>
    x.foreignKeys
      .filter((fk) => fk.refTable === a.id && sameSet(fk.refColumns, k.columns))
      .map((fk) => `${x.id}.${fk.name ?? '?'}`),
  );
}

/** A key whose columns match but whose deferral does not: replaced (same name), unless foreign keys hold on to it. */
function redefer(
  t: Table,
  a: Table,
  kind: 'primary key' | 'unique',
  want: Key,
  have: Key,
  actual: ClusterModel,
  problems: DiffProblem[],
): Step[] {
  if (
    (sameDeferral(want, have) &&
      Boolean(want.nullsNotDistinct) === Boolean(have.nullsNotDistinct) &&
      sameList(want.include ?? [], have.include ?? [])) ||
    have.name === undefined
  )
    return rename(t, want, have);
  const by = referencing(actual, a, have);
  if (by.length > 0) {
    problems.push({
      code: 'key_deferral_change_referenced',
      object: t.id,
      message: `${kind} ${have.name} changes DEFERRABLE / INITIALLY DEFERRED, NULLS NOT DISTINCT or INCLUDE, which means dropping and adding it again, but foreign key${by.length === 1 ? '' : 's'} ${by.join(', ')} depend on it`,
    });
    return [];
  }
  return [
    { kind: 'replace_constraint', table: t.qname, name: want.name ?? have.name, constraint: { kind, key: want } },
  ];
}

/**
 * Steps for the keys of desired table `t` that exists as `a`. A key whose columns change is
 * dropped and added again: a table has one primary key, and a unique constraint added under a
 * name the cluster holds fails ("relation … already exists"). Foreign keys that reference a
 * dropped key are diff/foreign-keys.ts's.
 */
export function keySteps(t: Table, a: Table, actual: ClusterModel, problems: DiffProblem[]): Step[] {
  const steps: Step[] = [];
  const pk = t.primaryKey;
  if (pk && !a.primaryKey) steps.push({ kind: 'add_primary_key', table: t.qname, key: pk });
  else if (pk && a.primaryKey && !sameList(pk.columns, a.primaryKey.columns)) {
    if (a.primaryKey.name !== undefined) steps.push(dropKey(t, a.primaryKey.name, 'primary key'));
    steps.push({ kind: 'add_primary_key', table: t.qname, key: pk });
  } else if (pk && a.primaryKey?.invalid && a.primaryKey.name !== undefined) {
    steps.push(dropKey(t, a.primaryKey.name, 'primary key', 'invalid'));
    steps.push({ kind: 'add_primary_key', table: t.qname, key: { ...pk, name: pk.name ?? a.primaryKey.name } });
  } else if (pk && a.primaryKey) steps.push(...redefer(t, a, 'primary key', pk, a.primaryKey, actual, problems));
  for (const u of t.unique) {
    const same = a.unique.filter((x) => sameSet(x.columns, u.columns));
    const have =
      same.find((x) => x.name === u.name && sameDeferral(x, u)) ?? same.find((x) => x.name === u.name) ?? same[0];
    // Its index is not valid, so it enforces nothing: dropped and added again (foreign keys that
    // reference it are dropped and added around it, diff/foreign-keys.ts).
    if (have?.invalid && have.name !== undefined) {
      steps.push(dropKey(t, have.name, 'unique constraint', 'invalid'));
      steps.push({ kind: 'add_unique', table: t.qname, key: { ...u, name: u.name ?? have.name } });
      continue;
    }
    if (have) {
      steps.push(...redefer(t, a, 'unique', u, have, actual, problems));
      continue;
    }
    const name = u.name ?? defaultKeyName(t.qname.name, 'unique', u);
    const taken = a.unique.find((x) => x.name === name && !t.unique.some((y) => sameSet(y.columns, x.columns)));
    if (taken) steps.push(dropKey(t, name, 'unique constraint'));
    steps.push({ kind: 'add_unique', table: t.qname, key: u });
  }
  return steps;
}

const dropKey = (
  t: Table,
  name: string,
  constraint: 'primary key' | 'unique constraint',
  reason: 'changed' | 'invalid' = 'changed',
): Step => ({ kind: 'drop_constraint', table: t.qname, name, constraint, reason });
