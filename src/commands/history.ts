// `citus-migrate history`: the applies recorded in citus_migrate.applies.
import { connectionTarget, withClient } from '../db/connect.js';
import { readHistory } from '../apply/history.js';
import { formatHistoryText } from '../format/history-text.js';
import type { CommandIo } from './io.js';

/** CLI entry. */
export async function historyCommand(
  opts: { database?: string; format?: 'text' | 'json'; limit?: number },
  io: CommandIo,
): Promise<number> {
  const rows = await withClient(connectionTarget(opts.database, io.env), (c) => readHistory(c, opts.limit ?? 50));
  io.stdout(opts.format === 'json' ? `${JSON.stringify(rows, null, 2)}\n` : formatHistoryText(rows));
  return 0;
}
