// The apply history as an aligned table. STATE is the cluster state each apply was planned
// against: the same 12 characters `plan` prints as "state …".
import type { HistoryRow } from '../apply/history.js';
import { visible } from '../util/visible.js';

const COLUMNS = [
  'ID',
  'STARTED',
  'OUTCOME',
  'STEPS',
  'DURATION',
  'BY',
  'MANIFEST',
  'STATE',
  'VERSION',
  'ERROR',
] as const;
const RIGHT = new Set<string>(['ID', 'STEPS', 'DURATION']);

function errorText(error: unknown): string {
  return error && typeof error === 'object' && 'message' in error
    ? String((error as { message: unknown }).message).split('\n')[0]!
    : '';
}

/** Renders history rows, newest first, under a header. */
export function formatHistoryText(rows: readonly HistoryRow[]): string {
  if (rows.length === 0) return 'No applies recorded.\n';
  const cells = rows.map((r) =>
    [
      String(r.id),
      r.started_at.replace(/\.\d+/, ''),
      r.outcome,
      String(r.step_count),
      r.duration_ms === null || r.duration_ms === undefined ? '-' : `${r.duration_ms} ms`,
      `${r.db_user}@${r.client_host ?? '?'}`,
      r.manifest_file,
      r.plan_fingerprint.slice(0, 12),
      r.tool_version,
      errorText(r.error),
    ].map((c) => visible(c)),
  );
  const widths = COLUMNS.map((c, i) => Math.max(c.length, ...cells.map((row) => row[i]!.length)));
  const line = (row: readonly string[]): string =>
    row
      .map((v, i) => (RIGHT.has(COLUMNS[i]!) ? v.padStart(widths[i]!) : v.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return `${[line(COLUMNS), ...cells.map(line)].join('\n')}\n`;
}
