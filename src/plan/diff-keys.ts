// Primary keys and unique constraints of a table that exists: added when missing, renamed when
// the manifest names one the cluster holds under another name (a name not declared is not
// compared), dropped and added again when their columns change under the same name.
import { defaultKeyName } from '../model/key-names.js';
import { sameList, sameSet } from '../model/same.js';
import type { Key, Table } from '../model/types.js';
import type { Step } from './steps.js';

/** RENAME CONSTRAINT when the manifest declares a name the actual key does not have. */
function rename(t: Table, want: Key, have: Key): Step[] {
  return want.name !== undefined && have.name !== undefined && want.name !== have.name
    ? [{ kind: 'rename_key', table: t.qname, from: have.name, to: want.name }]
    : [];
}

/**
 * Steps for the keys of desired table `t` that exists as `a`. A key whose columns change is
 * dropped and added again: a table has one primary key, and a unique constraint added under a
 * name the cluster holds fails ("relation … already exists"). Foreign keys that reference a
 * dropped key are diff-foreign-keys.ts's.
 */
export function keySteps(t: Table, a: Table): Step[] {
  const steps: Step[] = [];
  const pk = t.primaryKey;
  if (pk && !a.primaryKey) steps.push({ kind: 'add_primary_key', table: t.qname, key: pk });
  else if (pk && a.primaryKey && !sameList(pk.columns, a.primaryKey.columns)) {
    if (a.primaryKey.name !== undefined) steps.push(dropKey(t, a.primaryKey.name, 'primary key'));
    steps.push({ kind: 'add_primary_key', table: t.qname, key: pk });
  } else if (pk && a.primaryKey) steps.push(...rename(t, pk, a.primaryKey));
  for (const u of t.unique) {
    const same = a.unique.filter((x) => sameSet(x.columns, u.columns));
    const have = same.find((x) => x.name === u.name) ?? same[0];
    if (have) {
      steps.push(...rename(t, u, have));
      continue;
    }
    const name = u.name ?? defaultKeyName(t.qname.name, 'unique', u);
    const taken = a.unique.find((x) => x.name === name && !t.unique.some((y) => sameSet(y.columns, x.columns)));
    if (taken) steps.push(dropKey(t, name, 'unique constraint'));
    steps.push({ kind: 'add_unique', table: t.qname, key: u });
  }
  return steps;
}

const dropKey = (t: Table, name: string, constraint: 'primary key' | 'unique constraint'): Step => ({
  kind: 'drop_constraint',
  table: t.qname,
  name,
  constraint,
  reason: 'changed',
});
