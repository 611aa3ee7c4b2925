// A foreign partition (CREATE FOREIGN TABLE … PARTITION OF … SERVER) of an existing table: its
// options change in place (ALTER FOREIGN TABLE … OPTIONS (ADD / SET / DROP)); its server, or a
// partition that becomes foreign or stops being so, is a problem: PostgreSQL changes neither in
// place (detach it, and create it again by hand). Pure.
import type { Partition } from '../../model/types.js';
import { quoteQualified, type QualifiedName } from '../../sql/quote.js';
import type { DiffProblem } from '../problem.js';
import type { Step } from '../steps/steps.js';

/** The steps that give the cluster's partition `ap` the declared `p`'s foreign options, or a problem. */
export function foreignPartitionSteps(
  name: QualifiedName,
  p: Partition,
  ap: Partition,
  problems: DiffProblem[],
): Step[] {
  if (!p.foreign && !ap.foreign) return [];
  const object = quoteQualified(name);
  if (!p.foreign || !ap.foreign) {
    problems.push({
      code: 'partition_kind_changed',
      object,
      message: `is ${ap.foreign ? `a foreign partition (server ${ap.foreign.server})` : 'a partition with rows of its own'} in the cluster and ${p.foreign ? `a foreign partition (server ${p.foreign.server})` : 'a partition with rows of its own'} in the manifest; PostgreSQL cannot change this in place (detach it, and create it again by hand, moving its rows)`,
    });
    return [];
  }
  if (p.foreign.server !== ap.foreign.server) {
    problems.push({
      code: 'foreign_partition_server_changed',
      object,
      message: `is on server ${ap.foreign.server} in the cluster and ${p.foreign.server} in the manifest; PostgreSQL cannot move a foreign table to another server (detach it, and create it again by hand)`,
    });
    return [];
  }
  const want = p.foreign.options ?? {};
  const have = ap.foreign.options ?? {};
  const set = Object.entries(want)
    .filter(([k, v]) => have[k] !== v)
    .map(([k, v]) => [k, v, have[k] === undefined] as const);
  const drop = Object.keys(have).filter((k) => want[k] === undefined);
  return set.length > 0 || drop.length > 0 ? [{ kind: 'alter_foreign_partition', partition: name, set, drop }] : [];
}
