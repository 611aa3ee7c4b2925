// A table created by the plan whose column default or generated expression calls a routine the
// plan also creates (koji's DEFAULT get_event(), temporal's GENERATED … convert_ts(…)): the
// routine must exist first, while routines are otherwise created after tables (a SQL body may
// read them). Such a routine is created before the tables, with check_function_bodies off for
// its statement (as pg_dump does), so a SQL body that reads a table created later is accepted.
import type { Node } from '../sql/pg-parse.js';
import { strings, tryParseStatements } from '../sql/pg-parse.js';
import type { Step } from './steps.js';

/** The routine names (`name` or `schema.name`) an expression calls. */
export function calledRoutines(expr: string): string[] {
  const stmts = tryParseStatements(`SELECT ${expr}`);
  const out: string[] = [];
  const walk = (n: Node): void => {
    if (Array.isArray(n)) n.forEach(walk);
    else if (n && typeof n === 'object') {
      if (n.FuncCall) out.push(strings(n.FuncCall.funcname).join('.'));
      Object.values(n).forEach(walk);
    }
  };
  walk(stmts ?? []);
  return out;
}

/** The steps, with the create_routine steps that tables created in the same plan call marked beforeTables. */
export function routinesBeforeTables(steps: readonly Step[]): Step[] {
  const called = new Set<string>();
  for (const s of steps)
    if (s.kind === 'create_table')
      for (const c of s.columns)
        for (const e of [c.default, c.generated]) if (e !== undefined) for (const f of calledRoutines(e)) called.add(f);
  if (called.size === 0) return [...steps];
  return steps.map((s) =>
    s.kind === 'create_routine' && (called.has(s.routine.name) || called.has(`${s.routine.schema}.${s.routine.name}`))
      ? { ...s, beforeTables: true }
      : s,
  );
}
