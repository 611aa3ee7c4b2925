// Where in the manifest a live plan's problem is: the table, column, sequence or routine it names,
// as a manifest path (located to file:line:col by the command before it shows the plan, as
// validate's problems are). Pure.
import type { ResolvedManifest } from '../manifest/resolve.js';
import { refId } from '../model/object-ref.js';
import type { DiffProblem } from './problem.js';

/** The manifest path of the object a problem names, when the manifest declares it. */
export function manifestPathOf(object: string, m: ResolvedManifest): (string | number)[] | undefined {
  const table = refId(object, 'table') ?? refId(object, 'relation') ?? object;
  const key = m.keys.tables.get(table);
  if (key !== undefined) return ['tables', key];
  const sequence = m.keys.sequences.get(refId(object, 'sequence') ?? object);
  if (sequence !== undefined) return ['sequences', sequence];
  const routine = m.routineInfo[refId(object, 'routine') ?? object]?.key;
  if (routine !== undefined) return ['routines', routine];
  // A column: "<table id>.<column>", the column quoted or not.
  for (const [id, k] of m.keys.tables)
    if (table.startsWith(`${id}.`)) {
      const column = table.slice(id.length + 1);
      return ['tables', k, 'columns', column.startsWith('"') ? column.slice(1, -1).replace(/""/g, '"') : column];
    }
  return undefined;
}

/** The problems with their manifest path, where they have none of their own place. */
export function withManifestPaths(problems: readonly DiffProblem[], m: ResolvedManifest): DiffProblem[] {
  return problems.map((p) => {
    if (p.where !== undefined || p.at !== undefined) return p;
    const at = manifestPathOf(p.object, m);
    return at ? { ...p, at } : p;
  });
}

/** Fills `where` from `at` with `locate` (the manifest's file:line:col). */
export async function locateProblems(
  problems: readonly DiffProblem[],
  locate: (path: readonly (string | number)[]) => Promise<string | undefined>,
): Promise<DiffProblem[]> {
  const out: DiffProblem[] = [];
  for (const p of problems) {
    const where = p.where === undefined && p.at !== undefined ? await locate(p.at) : undefined;
    out.push(where !== undefined ? { ...p, where } : p);
  }
  return out;
}

/** Locates a plan's problems in place (its `problems` replaced), before the plan is shown or refused. */
export async function locatePlanProblems(
  plan: { readonly problems: readonly DiffProblem[] },
  locate: (path: readonly (string | number)[]) => Promise<string | undefined>,
): Promise<void> {
  if (!plan.problems.some((p) => p.where === undefined && p.at !== undefined)) return;
  (plan as { problems: readonly DiffProblem[] }).problems = await locateProblems(plan.problems, locate);
}
