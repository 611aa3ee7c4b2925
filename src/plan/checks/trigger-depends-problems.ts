// Citus refuses ALTER TRIGGER … DEPENDS ON EXTENSION on a distributed, reference or citus-local
// table ("trigger … depends on an extension and this is not supported for distributed tables and
// local tables added to metadata"; pinned by trigger-depends.citus.test.ts). A trigger of the sql:
// files declared so on a Citus table of the manifest is a plan problem, at its statement, rather
// than a plan that fails at apply. Pure.
import type { ClusterModel } from '../../model/types.js';
import { relationRef, routineRef, withoutArgs } from '../../model/object-ref.js';
import { tryParseStatements } from '../../sql/pg-parse.js';
import type { DiffProblem } from '../problem.js';

export function triggerDependsProblems(desired: ClusterModel): DiffProblem[] {
  const citusTables = new Set(
    Object.values(desired.tables)
      .filter((t) => t.distribution.kind !== 'local')
      .map((t) => relationRef(t.id)),
  );
  if (citusTables.size === 0) return [];
  const problems: DiffProblem[] = [];
  for (const o of Object.values(desired.objects)) {
    if (o.kind !== 'trigger' || o.parent === undefined || !citusTables.has(o.parent)) continue;
    const depends = o.create.some((sql) =>
      (tryParseStatements(sql) ?? []).some((st) => st?.stmt?.AlterObjectDependsStmt !== undefined),
    );
    if (depends)
      problems.push({
        code: 'citus_refuses_trigger_depends',
        object: o.id,
        message: `${o.source ? `declared at ${o.source}, it` : 'it'} DEPENDS ON EXTENSION, which Citus refuses on a distributed, reference or citus-local table ("depends on an extension and this is not supported for distributed tables and local tables added to metadata"): drop the ALTER TRIGGER … DEPENDS ON EXTENSION, or keep the table local`,
      });
  }
  return problems;
}

/**
 * Citus refuses ALTER FUNCTION / PROCEDURE … DEPENDS ON EXTENSION on a distributed function
 * ("distrtibuted functions are not allowed to depend on an extension"; pinned by
 * extension-dependencies.citus.test.ts): one the files declare on a routine the manifest
 * distributes, or the cluster has distributed, is a plan problem at its statement.
 */
export function routineDependsProblems(desired: ClusterModel, actual: ClusterModel | undefined): DiffProblem[] {
  const distributed = new Set(
    [...Object.values(desired.routines), ...Object.values(actual?.routines ?? {})]
      .filter((r) => r.distribution !== undefined)
      .map((r) => routineRef(withoutArgs(r.id))),
  );
  return Object.values(desired.objects)
    .filter((o) => o.kind === 'extension dependency' && o.parent !== undefined && distributed.has(o.parent))
    .map((o) => ({
      code: 'citus_refuses_function_depends',
      object: o.id,
      ...(o.source !== undefined ? { where: o.source } : {}),
      message: `the routine is distributed, and Citus refuses DEPENDS ON EXTENSION on a distributed function ("distrtibuted functions are not allowed to depend on an extension"): drop the statement, or keep the routine on the coordinator`,
    }));
}
