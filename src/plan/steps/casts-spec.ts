// Step records of casts on Citus's workers. Citus does not propagate CREATE CAST, and a routine
// delegated to a worker that uses a cast the worker lacks fails there (docs/citus-facts.md): each
// cast the plan makes on the coordinator is made on every worker too, after COMMIT (the workers'
// connections see the types and functions the plan made only once they are committed), and so is
// one a worker lacks. Its function must be on every node (a routine the manifest distributes:
// diff/cast-workers.ts). Each worker runs one block: a run_command_on_workers command of several
// statements reports only the first one's result.
import { isBuiltinType } from '../../sql/pg-parse.js';
import { castRef } from '../../model/object-ref.js';
import { PLAN_SEARCH_PATH } from '../pinned-settings.js';
import { CITUS, type StepSpecs } from './spec-record.js';
import { onWorkers } from './sql-parts.js';
import { quoteIdent } from '../../sql/quote.js';

/** A type of a cast's name (printed for search_path = public) qualified, so that it resolves under any path. */
const qualified = (type: string): string =>
  type.includes('.') || type.includes('"') || isBuiltinType(type.replace(/\(.*\)$/, '')) ? type : `public.${type}`;

/** The cast's source and target types, from its name `(source AS target)`. */
const typesOf = (cast: string): [string, string] => {
  const [source, target] = cast.slice(1, -1).split(' AS ');
  return [qualified(source!), qualified(target!)];
};

export const CAST_SPECS: StepSpecs<'cast_on_workers'> = {
  cast_on_workers: {
    ...CITUS,
    phase: (s) => s.dropPhase ?? 'after_commit',
    hazards: () => [],
    object: (s) => castRef(s.cast),
    sql: (s) => {
      const [source, target] = typesOf(s.cast);
      const drop = `DROP CAST IF EXISTS (${source} AS ${target})`;
      if (s.statements === undefined) return [onWorkers([drop])];
      const path = s.searchPath === undefined ? PLAN_SEARCH_PATH : quoteIdent(s.searchPath);
      return [onWorkers([drop, `SET LOCAL search_path TO ${path}`, ...s.statements])];
    },
    summary: (s) =>
      s.statements === undefined
        ? `drop cast ${s.cast} on every worker first (Citus does not propagate casts; not undone should the plan fail, the next plan makes it there again)`
        : s.missingOn
          ? `make cast ${s.cast} on the workers that lack it: ${s.missingOn.join(', ')} (Citus does not propagate casts)`
          : `make cast ${s.cast} on every worker too, after COMMIT (Citus does not propagate casts; a routine delegated there needs it)`,
  },
};
