// The manifest's `ignore:` list: globs over the lines a plan prints for objects it does not
// manage ("table staging.*", "trigger public.audit_*", "column public.t.legacy_*"). An ignored
// object is neither listed nor pruned: a team can own part of a database.

/** A predicate over "<kind> <name>" texts; `*` matches any run of characters, `?` one. */
export type IgnoreMatcher = (text: string) => boolean;

/** Compiles the ignore globs into one matcher (matching nothing when there are none). */
export function ignoreMatcher(globs: readonly string[]): IgnoreMatcher {
  if (globs.length === 0) return () => false;
  const res = globs.map(
    (g) =>
      new RegExp(
        `^${g
          .trim()
          .split('')
          .map((ch) => (ch === '*' ? '.*' : ch === '?' ? '.' : ch.replace(/[.+^${}()|[\]\\]/g, '\\$&')))
          .join('')}$`,
        's',
      ),
  );
  return (text) => res.some((re) => re.test(text));
}
