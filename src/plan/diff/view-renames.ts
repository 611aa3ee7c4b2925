// Views and materialized views of the `sql:` files renamed (`-- renamed_from: old` above their
// CREATE): while the cluster holds the former name and not the new one, the plan renames it (its
// grants, comments, dependents and a materialized view's rows kept) instead of creating the new
// one and dropping the old. Returns the cluster as the renames leave it (the view, its comment and
// grants, and every reference to it under the new name) and what earlier applies recorded of its
// definition, carried over when the declaration is unchanged but for the name. Pure.
import type { RecordedObject } from '../../model/live-state.js';
import { relationRef } from '../../model/object-ref.js';
import type { ClusterModel, SqlObject } from '../../model/types.js';
import { objectKey } from '../../objects/key.js';
import { splitQualified } from '../../objects/statement-parts.js';
import { parseStatements } from '../../sql/pg-parse.js';
import { quoteIdent, quoteQualified } from '../../sql/quote.js';
import type { DiffProblem } from '../problem.js';
import { keyHash } from '../same-object.js';
import type { Step } from '../steps/steps.js';

export interface ViewRenamed {
  readonly actual: ClusterModel;
  readonly recorded: Readonly<Record<string, RecordedObject>>;
  readonly steps: Step[];
  readonly problems: DiffProblem[];
}

const IDENT = String.raw`(?:"(?:[^"]|"")*"|[^\s."(]+)`;
const QUALIFIED = new RegExp(String.raw`^(${IDENT}\s*\.\s*)?${IDENT}`);

/** The declared statement with the view's own name (its last part) replaced by `name`. */
function declaredAs(statement: string, name: string): string | undefined {
  const [raw] = parseStatements(statement);
  const rel = raw?.stmt.ViewStmt?.view ?? raw?.stmt.CreateTableAsStmt?.into?.rel;
  if (rel?.location === undefined) return undefined;
  const bytes = Buffer.from(statement, 'utf8');
  const at = bytes.subarray(0, rel.location).toString('utf8').length;
  const m = QUALIFIED.exec(statement.slice(at));
  if (!m) return undefined;
  const end = at + m[0].length;
  const start = at + (m[1]?.length ?? 0);
  return `${statement.slice(0, start)}${quoteIdent(name)}${statement.slice(end)}`;
}

/** Every spelling of the former name in an object's id, name and statements, replaced. */
const moved = (o: SqlObject, from: string, to: string): SqlObject => {
  // The name as a whole: not the start of a longer one (public.v in public.v2).
  const whole = new RegExp(`${from.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}\\p{N}_$])`, 'gu');
  const r = (s: string): string => s.replace(whole, () => to);
  return {
    ...o,
    id: r(o.id),
    name: r(o.name),
    create: o.create.map(r),
    ...(o.drop ? { drop: o.drop.map(r) } : {}),
    ...(o.parent !== undefined ? { parent: r(o.parent) } : {}),
    provides: o.provides.map(r),
    deps: o.deps.map(r),
  };
};

/** The view renames `desired` declares that `actual` still needs, and `actual` as they leave it. */
export function viewRenames(
  desired: ClusterModel,
  actual: ClusterModel,
  recorded: Readonly<Record<string, RecordedObject>>,
): ViewRenamed {
  const steps: Step[] = [];
  const problems: DiffProblem[] = [];
  const names = new Map<string, string>(); // former quoted name → new
  const out: Record<string, RecordedObject> = { ...recorded };
  for (const d of Object.values(desired.objects)) {
    if (d.renamedFrom === undefined || (d.kind !== 'view' && d.kind !== 'materialized view')) continue;
    const [schema, name] = splitQualified(d.name);
    const from = quoteQualified({ schema, name: d.renamedFrom });
    const a = actual.objects[`${d.kind} ${from}`];
    if (!a) continue;
    if (actual.objects[d.id]) {
      problems.push({
        code: 'rename_both_exist',
        object: d.id,
        message: `declares renamed_from: ${d.renamedFrom}, and both ${from} and ${d.name} exist: drop one of them by hand, or remove renamed_from`,
      });
      continue;
    }
    names.set(from, d.name);
    // Unchanged but for its name since the last apply recorded it: what it became is carried over.
    const was = recorded[a.id];
    const asBefore = d.create.length === 1 ? declaredAs(d.create[0]!, d.renamedFrom) : undefined;
    const record =
      was !== undefined &&
      asBefore !== undefined &&
      was.desired === keyHash(objectKey([asBefore], d.searchPath)) &&
      was.actual === keyHash(objectKey(a.create, 'public'))
        ? keyHash(objectKey(d.create, d.searchPath))
        : undefined;
    if (record !== undefined) {
      out[d.id] = { desired: record, actual: keyHash(objectKey(moved(a, from, d.name).create, 'public')) };
      delete out[a.id];
    }
    steps.push({
      kind: 'rename_view',
      view: { schema, name: d.renamedFrom },
      to: name,
      materialized: d.kind === 'materialized view',
      object: d.id,
      ...(record !== undefined ? { record } : {}),
    });
  }
  if (names.size === 0) return { actual, recorded, steps, problems };
  const objects: Record<string, SqlObject> = {};
  for (const o of Object.values(actual.objects)) {
    let x = o;
    for (const [from, to] of names) {
      const ref = relationRef(from);
      // The view itself, and what belongs to it (its comment, grants, triggers, rules): renamed.
      if (x.id.endsWith(` ${from}`) || x.parent === ref) x = moved(x, from, to);
      // What depends on it names it by its new name once renamed.
      else x = { ...x, deps: x.deps.map((dep) => (dep === ref ? relationRef(to) : dep)) };
    }
    objects[x.id] = x;
  }
  return { actual: { ...actual, objects }, recorded: out, steps, problems };
}
