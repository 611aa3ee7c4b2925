// The manifest's `ignore:` list: globs over the lines a plan prints for objects it does not
// manage ("table staging.*", "trigger public.audit_*", "column public.t.legacy_*"). An ignored
// object is neither listed nor pruned: a team can own part of a database.
//
// A glob is anchored on the object's schema, so that one meant for a schema never reaches into
// another. The first `.` outside double quotes separates the schema, in the glob and in the line
// alike: what comes before it ("* staging", "table app") must match the line up to and with the
// schema's name ("privileges table staging", "table app"), what comes after it the rest of the line.
// A `*` or `?` therefore never matches the schema's dot, nor hides a name of one schema inside a
// line of another. A glob without a dot is unqualified, as a name is everywhere in the manifest: it
// names objects of the default schema (`defaults.schema`), matched against the line without its
// `<schema>.`, and objects that belong to no schema (schemas, extensions, languages…), by their
// whole line.
import { quoteIdent } from '../sql/quote.js';

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

/**
 * The text before and after its first `.` outside double quotes (a line's schema separator: names
 * are quoted as quote.ts quotes them, so a dot inside a name is inside quotes); undefined when it has none.
 */
export function splitAtSchema(text: string): { head: string; rest: string } | undefined {
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '"') quoted = !quoted;
    else if (text[i] === '.' && !quoted) return { head: text.slice(0, i), rest: text.slice(i + 1) };
  }
  return undefined;
}

// Where the last name of a line's head starts (the schema's, just before its dot): after the last
// space or parenthesis outside double quotes ("index i on app" → 4th word; "cast (app" → after "(").
function lastNameStart(head: string): number {
  let quoted = false;
  let start = 0;
  for (let i = 0; i < head.length; i++) {
    if (head[i] === '"') quoted = !quoted;
    else if (!quoted && (head[i] === ' ' || head[i] === '(')) start = i + 1;
  }
  return start;
}

/** One compiled glob: qualified (its head matches the line's kind and schema), or unqualified. */
type Compiled = { readonly head: string; readonly rest: string } | { readonly whole: string };

/**
 * Compiles the ignore globs into one matcher (matching nothing when there are none). A glob
 * without a schema names objects of `defaultSchema` (the manifest's `defaults.schema`).
 */
export function ignoreMatcher(globs: readonly string[], defaultSchema = 'public'): IgnoreMatcher {
  if (globs.length === 0) return () => false;
  const schema = quoteIdent(defaultSchema);
  const compiled: Compiled[] = globs.map((g) => splitAtSchema(g.trim()) ?? { whole: g.trim() });
  return (text) => {
    const line = splitAtSchema(text);
    // The line without "<default schema>.", for unqualified globs; undefined in another schema.
    let unqualified: string | undefined = text;
    if (line) {
      const at = lastNameStart(line.head);
      unqualified = line.head.slice(at) === schema ? line.head.slice(0, at) + line.rest : undefined;
    }
    return compiled.some((c) =>
      'whole' in c
        ? unqualified !== undefined && globMatches(c.whole, unqualified)
        : line !== undefined && globMatches(c.head, line.head) && globMatches(c.rest, line.rest),
    );
  };
}
