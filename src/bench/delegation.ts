// Proof that calls are delegated: each workload's call runs once in its real shape with
// client_min_messages = debug1 and citus.log_remote_commands = on. "pushing down the function
// call" / "pushing down the procedure" means delegated, and the remote command's DETAIL names the
// worker. Otherwise the reason is looked up, including the cases where Citus says nothing.
import pg from 'pg';
import { connectSession } from '../db/session.js';
import { PLAN_SEARCH_PATH } from '../plan/pinned-settings.js';
import type { LiveState } from '../model/live-state.js';
import type { Routine } from '../model/types.js';
import type { BenchWorkload } from '../manifest/resolve-bench.js';
import { parseStatements, strings, type Node } from '../sql/pg-parse.js';
import { parseRoutineSql } from '../sql/routine-parse.js';
import type { ParamValue } from './params.js';
import type { Shaped } from './statement.js';

export interface Delegation {
  readonly workload: string;
  /** failed: the call itself raised an error, so whether it is delegated is unknown; unobserved: no session to check in. */
  readonly status: 'delegated' | 'not-delegated' | 'failed' | 'unobserved';
  readonly delegated: boolean;
  /** The error the call raised, when it failed. */
  readonly error?: { readonly sqlstate?: string; readonly message: string };
  /** host:port of the worker the call went to, when delegated. */
  readonly worker?: string;
  /** Why it was not delegated. */
  readonly reason?: string;
  readonly debug: readonly string[];
}

function callOf(sql: string): { name: string[]; args: Node[] } | undefined {
  const stmt = parseStatements(sql)[0]?.stmt;
  const fc =
    stmt?.CallStmt?.funccall ??
    stmt?.SelectStmt?.targetList?.[0]?.ResTarget?.val?.FuncCall ??
    stmt?.SelectStmt?.fromClause?.[0]?.RangeFunction?.functions?.[0]?.List?.items?.[0]?.FuncCall;
  return fc ? { name: strings(fc.funcname), args: fc.args ?? [] } : undefined;
}

/** The routine a workload's statement calls, as the cluster has it (by name and argument count). */
export function routineOfCall(sql: string, live: LiveState): Routine | undefined {
  const call = callOf(sql);
  if (!call) return undefined;
  const name = call.name[call.name.length - 1]!;
  const schema = call.name.length > 1 ? call.name[0] : undefined;
  return Object.values(live.model.routines).find(
    (r) =>
      r.qname.name === name &&
      (schema === undefined || r.qname.schema === schema) &&
      (r.argTypes?.length ?? 0) >= call.args.length,
  );
}

/** "SQLSTATE message" of a failed call. */
export function failureText(error: NonNullable<Delegation['error']>): string {
  return error.sqlstate ? `${error.sqlstate} ${error.message}` : error.message;
}

/** Why Citus did not delegate, from what we know of the call and the cluster. */
export function diagnose(w: BenchWorkload, live: LiveState, debug: readonly string[]): string {
  if (w.isCall && w.protocol === 'prepared')
    return 'CALL with bind parameters: Citus runs it on the coordinator without a word (send it with literals: protocol auto)';
  const call = callOf(w.sql);
  if (!call) return 'not a single function or procedure call (SELECT f(…), SELECT … FROM f(…) or CALL p(…))';
  const r = routineOfCall(w.sql, live);
  if (!r) return `no routine ${call.name.join('.')} with ${call.args.length} argument(s) in the cluster`;
  if (!r.distribution || r.distribution.argIndex === undefined)
    return `${r.id} is not distributed with a distribution argument (create_distributed_function(…, '$N', colocate_with => …))`;
  if (r.definition) {
    try {
      if (parseRoutineSql(r.definition).inlinable)
        return `${r.id} is an inlinable SQL function: the planner inlines it, so Citus never delegates it`;
    } catch {
      /* not parseable: skip */
    }
  }
  const workers = live.doc.nodes.filter((n) => n.group !== 0 && n.role === 'primary' && n.active);
  if (workers.length === 0) return 'no worker nodes: a single-node cluster never delegates';
  const arg = call.args[r.distribution.argIndex];
  if (arg && !arg.A_Const && !arg.ParamRef && !arg.TypeCast?.arg?.A_Const)
    return `the distribution argument ($${r.distribution.argIndex + 1}) is not a constant or a bind parameter`;
  if (workers.some((n) => !n.hasMetadata || !n.metadataSynced))
    return 'a worker has no synced metadata (hasmetadata/metadatasynced false in pg_dist_node)';
  return `Citus did not delegate${debug.length ? `; debug1 said: ${debug.slice(0, 3).join(' | ')}` : ' and gave no reason'}`;
}

/** Runs each workload's call once and says whether it was delegated, and where. */
export async function checkDelegation(
  config: pg.ClientConfig,
  live: LiveState,
  work: readonly { w: BenchWorkload; s: Shaped; values: readonly ParamValue[] }[],
): Promise<Delegation[]> {
  const out: Delegation[] = [];
  for (const { w, s, values } of work) {
    const client = new pg.Client(config);
    const notices: { message: string; detail?: string }[] = [];
    client.on('notice', (n) => notices.push({ message: n.message ?? '', ...(n.detail ? { detail: n.detail } : {}) }));
    client.on('error', () => undefined);
    try {
      await connectSession(client);
    } catch (e) {
      out.push({
        workload: w.name,
        status: 'unobserved',
        delegated: false,
        reason: `no session to check in: cannot connect to ${config.host ?? ''}:${config.port ?? ''}: ${(e as Error).message}`,
        debug: [],
      });
      continue;
    }
    try {
      // The workload is the user's SQL: pg_catalog first, then public, as the plan runs it (so SQL
      // Citus writes for it, `'1_2'::text`, resolves to the built-in types).
      await client.query(`SET client_min_messages TO debug1; SET search_path TO ${PLAN_SEARCH_PATH}`);
      if (live.citus) await client.query('SET citus.log_remote_commands TO on');
      const q = s.render(values);
      try {
        await (q.values
          ? client.query({ ...(s.name ? { name: `${s.name}_check` } : {}), text: q.text, values: [...q.values] })
          : client.query(q.text));
      } catch (e) {
        const sqlstate = (e as { code?: string }).code;
        const error = { ...(sqlstate ? { sqlstate } : {}), message: (e as Error).message };
        out.push({
          workload: w.name,
          status: 'failed',
          delegated: false,
          error,
          reason: `the call failed: ${failureText(error)}`,
          debug: notices.map((n) => n.message),
        });
        continue;
      }
      const pushed = notices.some(
        (n) => n.message === 'pushing down the function call' || n.message === 'pushing down the procedure',
      );
      const remote = notices.find(
        (n) => n.message.startsWith('issuing') && /on server .*@[^:\s]+:\d+/.test(n.detail ?? ''),
      );
      const worker = remote?.detail?.match(/on server .*@([^:\s]+:\d+)/)?.[1];
      const debug = notices.filter((n) => !n.message.startsWith('issuing')).map((n) => n.message);
      out.push(
        pushed
          ? { workload: w.name, status: 'delegated', delegated: true, ...(worker ? { worker } : {}), debug }
          : { workload: w.name, status: 'not-delegated', delegated: false, reason: diagnose(w, live, debug), debug },
      );
    } finally {
      await client.end();
    }
  }
  return out;
}
