// What `bench` shows while the timed load runs, on stderr: a live line on a terminal, otherwise
// a plain line every few seconds (logs, CI).
import type { BenchEvents } from '../bench/run.js';
import type { CommandIo } from './io.js';
import { plural } from '../util/plural.js';

const secs = (ms: number): string => `${(ms / 1000).toFixed(1)}s`;

/** The bench events that print progress (and notes, as `bench: …`); `end` closes a live line. */
export function benchProgress(io: CommandIo, intervalMs = 5000): { events: BenchEvents; end(): void } {
  const note = (message: string): void => io.stderr(`bench: ${message}\n`);
  if (io.isTTY && !io.env.NO_COLOR) {
    return {
      events: {
        note,
        tick: ({ done, elapsedMs: el, totalMs: tot }) => {
          const pct = tot ? Math.min(100, Math.max(0, Math.round((el / tot) * 100))) : 0;
          io.stderr(
            `\r${el < 0 ? 'warming up' : `${'#'.repeat(pct / 5).padEnd(20, '.')} ${pct}%`}  ${done} txns  ${el > 0 ? Math.round(done / (el / 1000)) : 0} TPS   `,
          );
        },
      },
      end: () => io.stderr('\n'),
    };
  }
  return {
    events: {
      note,
      tickMs: intervalMs,
      tick: ({ done, errors, elapsedMs: el, totalMs: tot }) => {
        if (el < 0) {
          io.stderr(`bench: warming up, ${secs(-el)} to go\n`);
          return;
        }
        io.stderr(
          `bench: ${secs(el)}${tot ? ` of ${secs(tot)}` : ''}, ${done - errors} txns, ${(el > 0 ? (done - errors) / (el / 1000) : 0).toFixed(1)} TPS, ${plural(errors, 'error')}\n`,
        );
      },
    },
    end: () => undefined,
  };
}
