// `citus-migrate history`: the applies recorded in citus_migrate.applies; `history show N`: one.
import { connectionTarget, withClient } from '../db/connect.js';
import { readApply, readHistory } from '../own/history.js';
import { formatApplyText, formatHistoryText } from './history-text.js';
import { palette } from '../util/color.js';
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

/** CLI entry of `history show N`: apply #N's steps, outcome, times, manifest and error. */
export async function historyShowCommand(
  id: number,
  opts: { database?: string; format?: 'text' | 'json' },
  io: CommandIo,
): Promise<number> {
  const apply = await withClient(connectionTarget(opts.database, io.env), (c) => readApply(c, id));
  io.stdout(
    opts.format === 'json' ? `${JSON.stringify(apply, null, 2)}\n` : formatApplyText(apply, palette(io.color?.stdout)),
  );
  return 0;
}
