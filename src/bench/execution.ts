// What runs inside a delegated call, measured: the call runs once more, in its real shape and with
// the same values as the delegation check, directly on the worker it was delegated to, with
// citus.log_local_commands and citus.log_remote_commands on. On that worker Citus does not push
// the call down again (the shard is local: "not pushing down procedure to the same node") and
// plans each statement of the body as it does in a delegated call, so its notices say which shard
// commands ran locally ("executing the command locally: …") and which went to another node
// ("issuing …", transaction control left out). Compared with the static analysis of the routine.
import pg from 'pg';
import { connectSession } from '../db/session.js';
import { PLAN_SEARCH_PATH } from '../plan/pinned-settings.js';
import type { LiveState } from '../model/live-state.js';
import { analyzeRoutine, type RoutineAnalysis } from '../locality/analyze.js';
import type { LoadedManifest } from '../manifest/load.js';
import type { BenchWorkload } from '../manifest/resolve-bench.js';
import { routineOfCall, type Delegation } from './delegation.js';
import type { ParamValue } from './params.js';
import type { Shaped } from './statement.js';
import { loadPlpgsqlParser } from '../sql/plpgsql-check.js';

export interface Execution {
  /** host:port of the worker the call is delegated to. */
  readonly delegatedTo: string;
  /** Shard commands the worker ran itself, and sent to other nodes, for one call. */
  readonly localStatements?: number;
  readonly remoteStatements?: number;
  /** The first shard commands sent to other nodes (shortened). */
  readonly remote?: readonly string[];
  /** The static analysis of the same routine, and whether the measurement agrees with it. */
  readonly analysis?: {
    readonly crossShard: number;
    readonly coordinator: number;
    readonly unknown: number;
    readonly agrees: boolean;
    readonly note?: string;
  };
  /** Why it was not observed (the worker cannot be reached from here, the call failed…). */
  readonly error?: string;
}

const CONTROL =
  /^(BEGIN|COMMIT|ROLLBACK|PREPARE TRANSACTION|SAVEPOINT|RELEASE|SET |RESET |SELECT assign_distributed_transaction_id)/i;

/** host:port as Citus prints a node (the port after the last colon). */
function hostPort(worker: string): { host: string; port: number } {
  const i = worker.lastIndexOf(':');
  return { host: worker.slice(0, i).replace(/^\[(.*)\]$/, '$1'), port: Number(worker.slice(i + 1)) };
}

/** Counts the shard commands one call runs on the worker it is delegated to. */
async function observe(
  config: pg.ClientConfig,
  worker: string,
  query: { text: string; values?: readonly ParamValue[] },
): Promise<Pick<Execution, 'localStatements' | 'remoteStatements' | 'remote' | 'error'>> {
  const { host, port } = hostPort(worker);
  const client = new pg.Client({ ...config, host, port, connectionTimeoutMillis: 5000 });
  const local: string[] = [];
  const remote: string[] = [];
  client.on('notice', (n) => {
    const m = n.message ?? '';
    if (m.startsWith('executing the command locally: ')) local.push(m.slice(32));
    else if (m.startsWith('issuing ') && !CONTROL.test(m.slice(8))) remote.push(m.slice(8));
  });
  client.on('error', () => undefined);
  try {
    await connectSession(client);
  } catch (e) {
    return { error: `cannot connect to the worker ${worker} from here: ${(e as Error).message}` };
  }
  try {
    await client.query(
      `SET citus.log_local_commands TO on; SET citus.log_remote_commands TO on; SET search_path TO ${PLAN_SEARCH_PATH}`,
    );
    await (query.values ? client.query({ text: query.text, values: [...query.values] }) : client.query(query.text));
    return {
      localStatements: local.length,
      remoteStatements: remote.length,
      ...(remote.length
        ? { remote: remote.slice(0, 3).map((c) => (c.length > 120 ? `${c.slice(0, 117)}...` : c)) }
        : {}),
    };
  } catch (e) {
    return { error: `the call failed on the worker ${worker}: ${(e as Error).message}` };
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The static side: the routine the workload calls, analysed (manifest file first, else the catalog's definition). */
function analysisOf(w: BenchWorkload, live: LiveState, m: LoadedManifest): RoutineAnalysis | undefined {
  const r = routineOfCall(w.sql, live);
  if (!r || r.distribution?.argIndex === undefined) return undefined;
  const declared = m.desired.routines[r.id]?.definition;
  const definition = declared ?? r.definition;
  if (!definition) return undefined;
  return analyzeRoutine({ routine: r, definition }, live.model, m.manifest.defaults?.schema ?? 'public');
}

function compare(
  a: RoutineAnalysis | undefined,
  measured: Pick<Execution, 'remoteStatements' | 'remote'>,
): Execution['analysis'] {
  if (!a || a.skipped || measured.remoteStatements === undefined) return undefined;
  const count = (l: string): number => a.statements.filter((s) => s.locality === l).length;
  const crossShard = count('cross_shard');
  const coordinator = count('coordinator');
  const unknown = count('unknown');
  const away = crossShard + coordinator;
  if (measured.remoteStatements > 0 && away + unknown === 0) {
    return {
      crossShard,
      coordinator,
      unknown,
      agrees: false,
      note: `measured ${measured.remoteStatements} shard command(s) sent to other nodes although the analysis found every statement local (first: ${measured.remote?.[0] ?? '?'})`,
    };
  }
  if (measured.remoteStatements === 0 && away > 0) {
    return {
      crossShard,
      coordinator,
      unknown,
      agrees: true,
      note: `the analysis found ${away} statement(s) that can leave the shard; with this call's values they stayed on the worker`,
    };
  }
  return { crossShard, coordinator, unknown, agrees: true };
}

/** For each delegated workload: its call run once more on its worker, counted and compared. */
export async function measureExecution(
  config: pg.ClientConfig,
  live: LiveState,
  m: LoadedManifest,
  delegation: readonly Delegation[],
  work: readonly { w: BenchWorkload; s: Shaped; values: readonly ParamValue[] }[],
): Promise<Map<string, Execution>> {
  const out = new Map<string, Execution>();
  await loadPlpgsqlParser(); // the analysis reads PL/pgSQL bodies (a manifest of signatures never loaded it)
  for (const { w, s, values } of work) {
    const d = delegation.find((x) => x.workload === w.name);
    if (!d?.delegated || !d.worker) continue;
    const measured = await observe(config, d.worker, s.render(values));
    const analysis = compare(analysisOf(w, live, m), measured);
    out.set(w.name, { delegatedTo: d.worker, ...measured, ...(analysis ? { analysis } : {}) });
  }
  return out;
}
