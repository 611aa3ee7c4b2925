// Primary keys and unique constraints of a table that exists: added when missing, renamed when
// the manifest names one the cluster holds under another name (a name not declared is not compared).
import { sameList, sameSet } from '../model/same.js';
import type { Key, Table } from '../model/types.js';
import type { DiffProblem } from './diff-problem.js';
import type { Step } from './steps.js';

/** RENAME CONSTRAINT when the manifest declares a name the actual key does not have. */
function rename(t: Table, want: Key, have: Key): Step[] {
  return want.name !== undefined && have.name !== undefined && want.name !== have.name
    ? [{ kind: 'rename_key', table: t.qname, from: have.name, to: want.name }]
    : [];
}

/** Steps for the keys of desired table `t` that exists as `a`; a changed primary key is a problem. */
export function keySteps(t: Table, a: Table, problems: DiffProblem[]): Step[] {
  const steps: Step[] = [];
  const pk = t.primaryKey;
  if (pk && !a.primaryKey) steps.push({ kind: 'add_primary_key', table: t.qname, key: pk });
  else if (pk && a.primaryKey && !sameList(pk.columns, a.primaryKey.columns)) {
    problems.push({
      code: 'primary_key_changed',
      object: t.id,
      message: `has primary key (${a.primaryKey.columns.join(', ')}) in the cluster and (${pk.columns.join(', ')}) in the manifest; replacing a primary key is not planned`,
    });
  } else if (pk && a.primaryKey) steps.push(...rename(t, pk, a.primaryKey));
  for (const u of t.unique) {
    const same = a.unique.filter((x) => sameSet(x.columns, u.columns));
    const have = same.find((x) => x.name === u.name) ?? same[0];
    if (!have) steps.push({ kind: 'add_unique', table: t.qname, key: u });
    else steps.push(...rename(t, u, have));
  }
  return steps;
}
