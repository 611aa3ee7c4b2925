// The manifest's `ignore:` list: globs over the lines a plan prints for objects it does not
// manage ("table staging.*", "trigger public.audit_*", "column public.t.legacy_*"). An ignored
// object is neither listed nor pruned: a team can own part of a database.

/** A predicate over "<kind> <name>" texts; `*` matches any run of characters, `?` one. */
export type IgnoreMatcher = (text: string) => boolean;

/**
 * Whether `text` matches the whole of `glob` (`*` any run, `?` one UTF-16 unit, anything else
 * itself). A two-pointer walk that backs up only to the last `*`: O(glob × text) at worst, never
 * exponential — a regular expression built from `a*a*a*…b` backtracks for ever on a long name.
 */
export function globMatches(glob: string, text: string): boolean {
  let g = 0;
  let t = 0;
  let star = -1; // index in glob just past the last `*` seen
  let resume = 0; // index in text that `*` has consumed up to
  while (t < text.length) {
    if (g < glob.length && (glob[g] === '?' || (glob[g] !== '*' && glob[g] === text[t]))) {
      g++;
      t++;
    } else if (g < glob.length && glob[g] === '*') {
      star = ++g;
      resume = t;
    } else if (star >= 0) {
      g = star;
      t = ++resume;
    } else return false;
  }
  while (g < glob.length && glob[g] === '*') g++;
  return g === glob.length;
}

/** Compiles the ignore globs into one matcher (matching nothing when there are none). */
export function ignoreMatcher(globs: readonly string[]): IgnoreMatcher {
  if (globs.length === 0) return () => false;
  const trimmed = globs.map((g) => g.trim());
  return (text) => trimmed.some((g) => globMatches(g, text));
}
