// Base types in a plan. A base type the plan makes starts as its shell (CREATE TYPE t;, as pg_dump
// writes it), a step of its own: the functions in C or internal code that take or return the type
// come after it (plan/steps/step-names.ts), the type's definition after them. PostgreSQL drops a
// base type only with its functions (DROP TYPE … CASCADE, which takes every column of it too) and
// changes it in place only in part (ALTER TYPE … SET): a plan that would drop or change one is a
// plan problem, `base_type_change`, and says what the cluster has. Pure.
import type { SqlObject } from '../../model/types.js';
import { shellOf } from '../../objects/base-type.js';
import type { DiffProblem } from '../problem.js';
import type { Step } from '../steps/steps.js';

export function withBaseTypeShells(
  steps: readonly Step[],
  actual: Readonly<Record<string, SqlObject>>,
  problems: DiffProblem[],
): Step[] {
  const dropped = new Set(
    steps.flatMap((s) => (s.kind === 'drop_object' && s.objectKind === 'base type' ? [s.object] : [])),
  );
  for (const id of dropped) {
    const a = actual[id];
    problems.push({
      code: 'base_type_change',
      object: id,
      message: `PostgreSQL drops a base type only with its functions (DROP TYPE … CASCADE, which drops every column of it too), and the plan would drop it${a ? ` (the cluster has: ${a.create.join('; ')})` : ''}: declare it as the cluster has it, or drop it by hand`,
    });
  }
  return steps.flatMap((s): Step[] => {
    if ((s.kind === 'drop_object' || s.kind === 'create_object') && dropped.has(s.object)) return [];
    if (s.kind !== 'create_object' || s.objectKind !== 'base type' || actual[shellOf(nameOf(s.object))]) return [s];
    const name = nameOf(s.object);
    return [
      {
        kind: 'create_object',
        object: shellOf(name),
        objectKind: 'shell type',
        statements: [`CREATE TYPE ${name}`],
        recreate: false,
        ...(s.searchPath !== undefined ? { searchPath: s.searchPath } : {}),
      },
      s,
    ];
  });
}

const nameOf = (id: string): string => id.slice('base type '.length);
