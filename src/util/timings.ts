// Where a command's time goes (--timings, CITUS_MIGRATE_TIMINGS=1): the edges (the CLI, the
// connection, the manifest's loading, the catalog read, apply) record phases, and the CLI prints
// them on stderr when the command ends. Off, recording is a no-op: the pure core never calls it.

/** One measured phase: milliseconds since the process started, and its length. */
export interface Phase {
  readonly name: string;
  readonly start: number;
  readonly ms: number;
}

let phases: Phase[] | undefined;

/** Starts recording; a recording already started goes on (cli.ts starts one before plan's early read). */
export function startTimings(): void {
  phases ??= [];
}

/** Stops recording; returns what was recorded. */
export function stopTimings(): readonly Phase[] {
  const out = phases ?? [];
  phases = undefined;
  return out;
}

/** Records a phase that ran from `start` (a performance.now() reading) until `end`. */
export function recordPhase(name: string, start: number, end: number = performance.now()): void {
  phases?.push({ name, start, ms: end - start });
}

/** Runs `fn`, recording its time as `name` (for a promise: until it settles). */
export function timed<T>(name: string, fn: () => T): T {
  if (!phases) return fn();
  const start = performance.now();
  const out = fn();
  if (out instanceof Promise) {
    const settled = () => recordPhase(name, start);
    out.then(settled, settled);
  } else recordPhase(name, start);
  return out;
}

/**
 * The lines --timings prints: each phase in the order it started, with when it started (ms since
 * the process did) and how long it took; phases that overlap (connecting while the manifest is
 * parsed) overlap in the columns too.
 */
export function formatTimings(list: readonly Phase[], end: number): string {
  const sorted = [...list].sort((a, b) => a.start - b.start);
  const width = Math.max(5, ...sorted.map((p) => p.name.length));
  const row = (name: string, at: string, ms: string) =>
    `timings: ${name.padEnd(width)} ${at.padStart(7)} ${ms.padStart(7)}\n`;
  return [
    row('phase', 'at ms', 'ms'),
    ...sorted.map((p) => row(p.name, p.start.toFixed(1), p.ms.toFixed(1))),
    row('total', '0.0', end.toFixed(1)),
  ].join('');
}

/**
 * Runs a command recording its phases, then prints them with `print` (also when it fails).
 * `entered`: when the executable's own code started, so node's start-up and the CLI's loading
 * are phases too.
 */
export async function withTimings<T>(
  entered: number | undefined,
  print: (text: string) => void,
  run: () => Promise<T>,
): Promise<T> {
  startTimings();
  if (entered !== undefined) {
    recordPhase('start-up', 0, entered);
    recordPhase('load cli', entered);
  }
  try {
    return await run();
  } finally {
    print(formatTimings(stopTimings(), performance.now()));
  }
}
