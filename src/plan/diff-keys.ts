// Primary keys, unique constraints and foreign keys of a table that exists: added when missing,
// renamed when the manifest names one the cluster holds under another name (a name not declared
// is not compared), dropped and added again when only DEFERRABLE / INITIALLY DEFERRED differ.
import { sameDeferral, sameFk, sameList, sameSet } from '../model/same.js';
import type { ClusterModel, Key, Table } from '../model/types.js';
import type { DiffProblem } from './diff.js';
import type { Step } from './steps.js';

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
  if (sameDeferral(want, have) || have.name === undefined) return rename(t, want, have);
  const by = referencing(actual, a, have);
  if (by.length > 0) {
    problems.push({
      code: 'key_deferral_change_referenced',
      object: t.id,
      message: `${kind} ${have.name} changes DEFERRABLE / INITIALLY DEFERRED, which means dropping and adding it again, but foreign key${by.length === 1 ? '' : 's'} ${by.join(', ')} depend on it`,
    });
    return [];
  }
  return [
    { kind: 'replace_constraint', table: t.qname, name: want.name ?? have.name, constraint: { kind, key: want } },
  ];
}

/** Steps for the keys of desired table `t` that exists as `a`; a changed primary key is a problem. */
export function keySteps(t: Table, a: Table, actual: ClusterModel, problems: DiffProblem[]): Step[] {
  const steps: Step[] = [];
  const pk = t.primaryKey;
  if (pk && !a.primaryKey) steps.push({ kind: 'add_primary_key', table: t.qname, key: pk });
  else if (pk && a.primaryKey && !sameList(pk.columns, a.primaryKey.columns)) {
    problems.push({
      code: 'primary_key_changed',
      object: t.id,
      message: `has primary key (${a.primaryKey.columns.join(', ')}) in the cluster and (${pk.columns.join(', ')}) in the manifest; replacing a primary key is not planned`,
    });
  } else if (pk && a.primaryKey) steps.push(...redefer(t, a, 'primary key', pk, a.primaryKey, actual, problems));
  for (const u of t.unique) {
    const same = a.unique.filter((x) => sameSet(x.columns, u.columns));
    const have =
      same.find((x) => x.name === u.name && sameDeferral(x, u)) ?? same.find((x) => x.name === u.name) ?? same[0];
    if (!have) steps.push({ kind: 'add_unique', table: t.qname, key: u });
    else steps.push(...redefer(t, a, 'unique', u, have, actual, problems));
  }
  return steps;
}

/**
 * Foreign keys of desired table `t` (present, or created by this plan): added when missing,
 * validated when the cluster's was added NOT VALID and the manifest does not declare `not_valid`
 * (an online apply that stopped before validating it), replaced when only the deferral differs.
 */
export function foreignKeySteps(t: Table, desired: ClusterModel, actual: ClusterModel): Step[] {
  const steps: Step[] = [];
  const have = actual.tables[t.id]?.foreignKeys ?? [];
  for (const fk of t.foreignKeys) {
    const same = have.filter((x) => sameFk(x, fk));
    const found = same.find((x) => sameDeferral(x, fk)) ?? same[0];
    const refTable = desired.tables[fk.refTable]!.qname;
    if (!found) steps.push({ kind: 'add_foreign_key', table: t.qname, fk, refTable });
    else if (!sameDeferral(found, fk) && found.name !== undefined)
      steps.push({
        kind: 'replace_constraint',
        table: t.qname,
        name: fk.name ?? found.name,
        constraint: { kind: 'foreign key', fk, refTable },
      });
    else if (found.notValid && !fk.notValid && found.name !== undefined)
      steps.push({ kind: 'validate_constraint', table: t.qname, name: found.name });
  }
  return steps;
}
