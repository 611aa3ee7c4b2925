// The statements that create or replace a routine: its schema pinned, its body unchecked when a
// cycle needs it, and with metadata sync off when it stays on the coordinator.
import { quoteIdent } from '../../sql/quote.js';
import { pinLocal } from '../pinned-settings.js';

// citus.enable_metadata_sync off: CREATE [OR REPLACE] FUNCTION is neither propagated nor recorded in pg_dist_object.
// Each setting a step changes is pinned again after it (pinned-settings.ts), never RESET: RESET
// goes back to the database's or role's default, which another role may have set.
const coordinatorOnly = (s: { readonly coordinatorOnly?: boolean }, stmts: readonly string[]): readonly string[] =>
  s.coordinatorOnly
    ? ['SET LOCAL citus.enable_metadata_sync TO off', ...stmts, pinLocal('citus.enable_metadata_sync')]
    : stmts;

/**
 * CREATE [OR REPLACE] of a routine. Unchecked: its SQL body reads what a cycle creates after it
 * (order/order-steps.ts), so PostgreSQL's check at CREATE is off for the statement, as pg_dump does.
 */
export function routineSql(s: {
  searchPath?: string;
  definition: string;
  uncheckedBody?: boolean;
  bodyPath?: string;
  coordinatorOnly?: boolean;
  /** Given back to this role after the CREATE (a routine dropped and created again). */
  owner?: string;
  routineKind?: 'function' | 'procedure';
  signature?: string;
}): string[] {
  const owner =
    s.owner !== undefined && s.signature !== undefined
      ? [
          `ALTER ${s.routineKind === 'procedure' ? 'PROCEDURE' : 'FUNCTION'} ${s.signature} OWNER TO ${quoteIdent(s.owner)}`,
        ]
      : [];
  return [
    ...(s.searchPath !== undefined ? [`SET LOCAL search_path TO ${quoteIdent(s.searchPath)}`] : []),
    ...(s.bodyPath !== undefined ? [`SET LOCAL search_path TO ${quoteIdent(s.bodyPath)}, public`] : []),
    ...coordinatorOnly(
      s,
      s.uncheckedBody
        ? ['SET LOCAL check_function_bodies TO off', s.definition, pinLocal('check_function_bodies'), ...owner]
        : [s.definition, ...owner],
    ),
    ...(s.bodyPath !== undefined || s.searchPath !== undefined ? [pinLocal('search_path')] : []),
  ];
}
