// The one duration syntax, shared by the manifest (bench.duration, bench.warmup) and the flags
// (--duration, --warmup, apply's --lock-timeout …): a number followed by ms, s, m or h.

/** The accepted form, for the manifest schema (and so the JSON Schema's `pattern`). */
export const DURATION_PATTERN = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/;

const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const;

/** Parses 500ms / 30s / 1.5m / 1h into milliseconds; undefined when the text is not a duration. */
export function parseDuration(text: string): number | undefined {
  const m = DURATION_PATTERN.exec(text);
  return m ? Math.round(Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS]) : undefined;
}

/** Milliseconds in the same syntax, as a flag would give them: 2s, 1.5s, 300ms. */
export function formatDuration(ms: number): string {
  return ms >= 1000 ? `${Number((ms / 1000).toFixed(3))}s` : `${Math.round(ms)}ms`;
}
