// Objects keyed by names someone else chose (a table, column, schema, colocation group, routine
// or index name; an object id; a workload): without a prototype, so a name such as `__proto__`,
// `constructor` or `toString` is a key like any other. On a plain `{}`, `o['__proto__'] = v`
// replaces the prototype instead of adding a key, and `o['constructor']` finds Object's own
// member: a declared table went missing and an absent one was found.

/** An empty object with no prototype, to key by names. */
export function dict<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

/** A prototype-less copy of `entries` (an object's own keys, or [key, value] pairs), in their order. */
export function dictOf<T>(entries: Readonly<Record<string, T>> | Iterable<readonly [string, T]>): Record<string, T> {
  const out = dict<T>();
  const pairs = Symbol.iterator in entries ? entries : Object.entries(entries);
  for (const [k, v] of pairs as Iterable<readonly [string, T]>) out[k] = v;
  return out;
}
