// What Citus refuses of objects built on the server's code, as plan problems rather than plans that
// fail at apply. Citus does not propagate CREATE ACCESS METHOD, and a Citus table (distributed, reference or
// citus-local: its shell table goes to every node with metadata) made with one fails on a worker
// ("access method … does not exist", pinned by access-methods.citus.test.ts). A Citus table of the
// manifest, or a partition of one, with an access method other than heap and columnar is a plan
// problem. Nor does it propagate CREATE TEXT SEARCH TEMPLATE, yet it propagates a dictionary, which
// then fails on a worker ("text search template … does not exist"): on Citus, a dictionary on a
// template of the files is a plan problem too, and so is a Citus table with a column of a base
// type of the files (Citus propagates no base type: "has dependency on unsupported object"). Pure.
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

/** On Citus: the dictionaries the manifest declares on a template it declares too. */
export function textSearchTemplateProblems(desired: ClusterModel): DiffProblem[] {
  const problems: DiffProblem[] = [];
  for (const o of Object.values(desired.objects)) {
    if (o.kind !== 'text search dictionary') continue;
    const template = o.deps.find((d) => d.startsWith('text search template ') && desired.objects[d] !== undefined);
    if (template === undefined) continue;
    const at = desired.objects[template]!.source;
    problems.push({
      code: 'citus_text_search_template',
      object: o.id,
      message: `is made from ${template}${at ? ` (${at})` : ''}, which Citus does not propagate, while it propagates the dictionary: CREATE TEXT SEARCH DICTIONARY fails on the workers ("text search template … does not exist"); use one of PostgreSQL's templates (simple, synonym, thesaurus, ispell, snowball) or an extension's`,
    });
  }
  return problems;
}

/** A distributed, reference or citus-local table with a column of a base type the files declare. */
export function baseTypeProblems(desired: ClusterModel): DiffProblem[] {
  const declared = new Map(
    Object.values(desired.objects)
      .filter((o) => o.kind === 'base type')
      .map((o) => [o.name.replace(/^public\./, ''), o] as const),
  );
  if (declared.size === 0) return [];
  const problems: DiffProblem[] = [];
  for (const t of Object.values(desired.tables)) {
    if (t.distribution.kind === 'local') continue;
    for (const c of t.columns ?? []) {
      const b = declared.get(c.type.base.replace(/(\[\])+$/, '').replace(/^public\./, ''));
      if (!b) continue;
      problems.push({
        code: 'citus_base_type',
        object: tableRef(t.qname),
        message: `column ${c.name} is of base type ${b.name}${b.source ? ` (${b.source})` : ''}, which Citus neither propagates to the workers nor lets a distributed, reference or citus-local table use ("has dependency on unsupported object"): keep the table local`,
      });
    }
  }
  return problems;
}
