// `citus-migrate history`: the applies recorded in citus_migrate.applies.
import { connectionTarget, withClient } from '../db/connect.js';
import { readHistory } from '../apply/history.js';
import type { CommandIo } from './io.js';

/** CLI entry. */
export async function historyCommand(opts: { database?: string; format?: 'text' | 'json'; limit?: string }, io: CommandIo): Promise<number> {
  const rows = await withClient(connectionTarget(opts.database, io.env), (c) => readHistory(c, Number(opts.limit ?? 50)));
  if (opts.format === 'json') { io.stdout(`${JSON.stringify(rows, null, 2)}\n`); return 0; }
  if (rows.length === 0) { io.stdout('No applies recorded.\n'); return 0; }
  for (const r of rows) {
    const err = r.error && typeof r.error === 'object' && 'message' in (r.error as object) ? `  ${(r.error as { message: string }).message}` : '';
    io.stdout(`#${r.id}  ${r.started_at}  ${r.outcome.padEnd(13)} ${String(r.step_count).padStart(3)} step(s)  ${r.duration_ms ?? '-'} ms  ${r.db_user}@${r.client_host ?? '?'}  ${r.manifest_file}  plan ${r.plan_fingerprint.slice(0, 12)}  v${r.tool_version}${err}\n`);
  }
  return 0;
}
