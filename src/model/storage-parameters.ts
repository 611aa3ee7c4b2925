// A table's storage parameters (WITH (fillfactor = 70), autovacuum_*, toast.*): read from
// pg_class.reloptions (`name=value`, the TOAST table's as toast.name), compared by meaning
// (booleans as booleans, numbers as numbers: PostgreSQL keeps the text as written, `off`, `.05`).

const TRUE = new Set(['true', 'on', 'yes', '1', 't', 'y']);
const FALSE = new Set(['false', 'off', 'no', '0', 'f', 'n']);

/** `name=value` entries (reloptions) as a record; `prefix` for the TOAST table's (`toast.`). */
export function parseReloptions(entries: readonly string[] | null | undefined, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of entries ?? []) {
    const at = e.indexOf('=');
    if (at > 0) out[`${prefix}${e.slice(0, at)}`] = e.slice(at + 1);
  }
  return out;
}

/** A parameter's text as the value it means: a boolean, a number, or the text itself. */
export function parameterValue(v: string): boolean | number | string {
  const lower = v.toLowerCase();
  if (TRUE.has(lower) && lower !== '1') return true;
  if (FALSE.has(lower) && lower !== '0') return false;
  const n = Number(v);
  return v.trim() !== '' && Number.isFinite(n) ? n : v;
}

/** Whether two values of one parameter mean the same. */
export function sameParameterValue(a: string, b: string): boolean {
  if (a === b) return true;
  const [x, y] = [a.toLowerCase(), b.toLowerCase()];
  if ((TRUE.has(x) && TRUE.has(y)) || (FALSE.has(x) && FALSE.has(y))) return true;
  const [n, m] = [Number(a), Number(b)];
  return a.trim() !== '' && b.trim() !== '' && Number.isFinite(n) && Number.isFinite(m) && n === m;
}

/** What to SET (name → value) and RESET (names) to take `have` to `want`. */
export function parameterChanges(
  want: Readonly<Record<string, string>>,
  have: Readonly<Record<string, string>>,
): { set: [string, string][]; reset: string[] } {
  const set = Object.entries(want).filter(([k, v]) => have[k] === undefined || !sameParameterValue(v, have[k]!));
  const reset = Object.keys(have).filter((k) => want[k] === undefined);
  return { set: set.sort(([a], [b]) => a.localeCompare(b)), reset: reset.sort() };
}
