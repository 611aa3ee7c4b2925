// The apply history as an aligned table. STATE is the cluster state each apply was planned
// against: the same 12 characters `plan` prints as "state …".
import type { ApplyDetail, HistoryOutcome, HistoryRow } from '../own/history.js';
import { NO_COLOR, type Palette } from '../util/color.js';
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

const OUTCOME_COLOR: Readonly<Record<HistoryOutcome, 'green' | 'red' | 'yellow'>> = {
  applied: 'green',
  nothing_to_do: 'green',
  failed: 'red',
  aborted: 'red',
  committed_not_converged: 'red',
  running: 'yellow',
};

/** The lines of a recorded error: its message, then the server's fields and the statement. */
function errorLines(error: unknown): string[] {
  if (!error || typeof error !== 'object') return error == null ? [] : [String(error)];
  const e = error as Record<string, unknown>;
  const field = (key: string, label: string): string[] =>
    typeof e[key] === 'string' || typeof e[key] === 'number' ? [`${label}${String(e[key])}`] : [];
  return [
    ...(typeof e.message === 'string' ? e.message.split('\n') : []),
    ...field('sqlstate', 'SQLSTATE: '),
    ...field('detail', 'DETAIL: '),
    ...field('hint', 'HINT: '),
    ...field('step', 'at step '),
    ...(typeof e.statement === 'string' ? ['statement:', ...e.statement.split('\n').map((l) => `  ${l}`)] : []),
  ];
}

/** Renders one apply (history show N): outcome, times, manifest, error, then its steps. */
export function formatApplyText(a: ApplyDetail, p: Palette = NO_COLOR): string {
  const time = (t: string | null): string => (t === null ? '-' : t.replace(/\.\d+/, ''));
  const tint = p[OUTCOME_COLOR[a.outcome] ?? 'bold'];
  const v = (s: string): string => visible(s);
  const errors = errorLines(a.error).map((l) => visible(l));
  const steps = Array.isArray(a.steps) ? a.steps : [];
  const width = String(steps.length).length;
  const kindWidth = Math.max(0, ...steps.map((s) => v(String(s.kind)).length));
  const lines = [
    `${p.bold(`Apply #${a.id}`)}: ${tint(v(a.outcome))}`,
    `  started   ${v(time(a.started_at))}`,
    `  finished  ${v(time(a.finished_at))}${a.duration_ms === null || a.duration_ms === undefined ? '' : ` (${a.duration_ms} ms)`}`,
    `  by        ${v(`${a.db_user}@${a.client_host ?? '?'}`)}`,
    `  manifest  ${v(a.manifest_file)} (sha256 ${v(a.manifest_sha256.slice(0, 12))})`,
    `  state     ${v(a.plan_fingerprint.slice(0, 12))}`,
    `  version   ${v(a.tool_version)}`,
    ...errors.map((l, i) => `${i === 0 ? '  error     ' : '            '}${i === 0 ? p.red(l) : l}`),
    '',
    steps.length === 0 ? 'No steps.' : `Steps (${steps.length}):`,
    ...steps.map((s) => {
      const hazards =
        Array.isArray(s.hazards) && s.hazards.length ? `  ${p.yellow(`[${v(s.hazards.join(', '))}]`)}` : '';
      return `  ${String(s.index).padStart(width)}. ${p.dim(v(String(s.kind)).padEnd(kindWidth))}  ${v(String(s.summary))}${hazards}`;
    }),
  ];
  return `${lines.join('\n')}\n`;
}
