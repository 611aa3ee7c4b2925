// Citus does not propagate CREATE ACCESS METHOD, and a Citus table (distributed, reference or
// citus-local: its shell table goes to every node with metadata) made with one fails on a worker
// ("access method … does not exist", pinned by access-methods.citus.test.ts). A Citus table of the
// manifest, or a partition of one, with an access method other than heap and columnar is a plan
// problem rather than a plan that fails at apply. Pure.
import type { ClusterModel } from '../../model/types.js';
import { tableRef } from '../../model/object-ref.js';
import type { DiffProblem } from '../problem.js';

const own = (am: string | undefined): am is string => am !== undefined && am !== 'heap' && am !== 'columnar';

export function accessMethodProblems(desired: ClusterModel): DiffProblem[] {
  const problems: DiffProblem[] = [];
  for (const t of Object.values(desired.tables)) {
    if (t.distribution.kind === 'local') continue;
    const uses = [
      ...(own(t.accessMethod) ? [`uses access method ${t.accessMethod}`] : []),
      ...(t.partitions ?? []).flatMap((p) =>
        own(p.accessMethod) ? [`has partition ${p.name} using access method ${p.accessMethod}`] : [],
      ),
    ];
    for (const what of uses)
      problems.push({
        code: 'citus_access_method',
        object: tableRef(t.qname),
        message: `${what}, which Citus does not propagate to the workers: a distributed, reference or citus-local table made with one fails there ("access method … does not exist"); keep the table local, or use heap or columnar`,
      });
  }
  return problems;
}
