// `citus-migrate history`: the applies recorded in citus_migrate.applies.
import { connectionTarget, withClient } from '../db/connect.js';
import { readHistory } from '../apply/history.js';
import { UsageError } from '../errors.js';
import { formatHistoryText } from '../format/history-text.js';
import type { CommandIo } from './io.js';

/** CLI entry. */
export async function historyCommand(opts: { database?: string; format?: 'text' | 'json'; limit?: string }, io: CommandIo): Promise<number> {
  const limit = Number(opts.limit ?? 50);
  if (!Number.isInteger(limit) || limit < 1) throw new UsageError(`--limit must be a whole number of at least 1, got ${JSON.stringify(opts.limit)}`);
  const rows = await withClient(connectionTarget(opts.database, io.env), (c) => readHistory(c, limit));
  io.stdout(opts.format === 'json' ? `${JSON.stringify(rows, null, 2)}\n` : formatHistoryText(rows));
  return 0;
}
