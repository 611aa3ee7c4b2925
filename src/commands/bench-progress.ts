// What `bench` shows while the timed load runs, on stderr: a live line on a terminal, otherwise
// a plain line every few seconds (logs, CI).
import type { BenchEvent } from '../bench/run.js';
import type { Tick } from '../bench/runner.js';
import type { CommandIo } from './io.js';
import { plural } from '../util/plural.js';

const secs = (ms: number): string => `${(ms / 1000).toFixed(1)}s`;

/**
 * The bench event handler that prints progress (and notes, as `bench: …`), the interval its ticks
 * need (none: the default), and `end`, which closes a live line.
 */
export function benchProgress(
  io: CommandIo,
  intervalMs = 5000,
): { onEvent: (event: BenchEvent) => void; tickMs?: number; end(): void } {
  const live = io.isTTY && !io.env.NO_COLOR;
  const tick = live ? liveTick(io) : lineTick(io);
  return {
    onEvent: (e) => (e.kind === 'note' ? io.stderr(`bench: ${e.message}\n`) : tick(e)),
    ...(live ? {} : { tickMs: intervalMs }),
    end: () => (live ? io.stderr('\n') : undefined),
  };
}

/** A terminal's live line, rewritten at every tick. */
const liveTick =
  (io: CommandIo) =>
  ({ done, elapsedMs: el, totalMs: tot }: Tick): void => {
    const pct = tot ? Math.min(100, Math.max(0, Math.round((el / tot) * 100))) : 0;
    io.stderr(
      `\r${el < 0 ? 'warming up' : `${'#'.repeat(pct / 5).padEnd(20, '.')} ${pct}%`}  ${done} txns  ${el > 0 ? Math.round(done / (el / 1000)) : 0} TPS   `,
    );
  };

/** A line per tick, for logs. */
const lineTick =
  (io: CommandIo) =>
  ({ done, errors, elapsedMs: el, totalMs: tot }: Tick): void => {
    if (el < 0) {
      io.stderr(`bench: warming up, ${secs(-el)} to go\n`);
      return;
    }
    io.stderr(
      `bench: ${secs(el)}${tot ? ` of ${secs(tot)}` : ''}, ${done - errors} txns, ${(el > 0 ? (done - errors) / (el / 1000) : 0).toFixed(1)} TPS, ${plural(errors, 'error')}\n`,
    );
  };
