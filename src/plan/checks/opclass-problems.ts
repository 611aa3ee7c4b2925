// Citus propagates neither operator classes nor families, and refuses a Citus table whose index
// uses one of the user's: create_distributed_table and CREATE INDEX on a distributed table stop
// with "has dependency on unsupported object \"operator class … for access method …\"" (pinned by
// opclasses.citus.test.ts). An index of the sql: files on a distributed, reference or citus-local
// table of the manifest that names an operator class the files declare is a plan problem, with
// where both are declared, rather than a plan that fails at apply. Pure.
import type { ClusterModel } from '../../model/types.js';
import { relationRef } from '../../model/object-ref.js';
import { tryParseStatements, strings, type Node } from '../../sql/pg-parse.js';
import { quoteIdent } from '../../sql/quote.js';
import { listName } from '../../objects/statement-parts.js';
import type { DiffProblem } from '../problem.js';

export function opclassProblems(desired: ClusterModel): DiffProblem[] {
  const classes = new Map<string, string | undefined>();
  for (const o of Object.values(desired.objects)) if (o.kind === 'operator class') classes.set(o.name, o.source);
  if (classes.size === 0) return [];
  const citusTables = new Set(
    Object.values(desired.tables)
      .filter((t) => t.distribution.kind !== 'local')
      .map((t) => relationRef(t.id)),
  );
  const problems: DiffProblem[] = [];
  for (const o of Object.values(desired.objects)) {
    if (o.kind !== 'index' || o.parent === undefined || !citusTables.has(o.parent)) continue;
    const stmt: Node | undefined = tryParseStatements(o.create[0] ?? '')?.[0]?.stmt?.IndexStmt;
    if (!stmt) continue;
    const method = quoteIdent(stmt.accessMethod ?? 'btree');
    for (const p of stmt.indexParams ?? []) {
      const names = strings(p.IndexElem?.opclass);
      if (names.length === 0 || names[0] === 'pg_catalog') continue;
      const name = `${listName(names, o.searchPath ?? 'public')} USING ${method}`;
      if (!classes.has(name)) continue;
      const at = classes.get(name);
      problems.push({
        code: 'opclass_distributed',
        object: o.id,
        message: `${o.source ? `declared at ${o.source}, it` : 'it'} uses operator class ${name}${at ? ` (${at})` : ''}, which Citus neither propagates to the workers nor lets a distributed, reference or citus-local table's index use ("has dependency on unsupported object"): keep the table local, or index it with one of PostgreSQL's operator classes`,
      });
    }
  }
  return problems;
}
