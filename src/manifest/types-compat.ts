// Which distribution argument types are known safe against a distribution column type: the same
// type, or one PostgreSQL casts to it implicitly. (Citus itself accepts any explicit coercion path.)
const IMPLICIT: Readonly<Record<string, readonly string[]>> = {
  smallint: ['integer', 'bigint', 'numeric', 'real', 'double precision'],
  integer: ['bigint', 'numeric', 'real', 'double precision'],
  bigint: ['numeric', 'real', 'double precision'],
  'character varying': ['text', 'name'],
  character: ['text', 'character varying', 'name'],
  text: ['character varying', 'character', 'name'],
  name: ['text'],
};

/** True when a value of type `from` can be compared with (implicitly cast to) type `to`. */
export function canCoerce(from: string, to: string): boolean {
  return from === to || (IMPLICIT[from] ?? []).includes(to);
}
