// What a manifest value that matches none of a union's forms should have been, by its path: said
// instead of zod's "matches none of the accepted forms".

/** The first hint whose pattern matches the dotted path is used. */
export const UNION_HINTS: readonly [RegExp, string][] = [
  [
    /^tables\.[^.]+\.columns\.[^.]+\.identity$/,
    'expected `always`, `by default`, or { generated: always | by default, start, increment, min, max, cache, cycle }',
  ],
  [/^tables\.[^.]+\.columns\./, 'expected a type name such as integer, or { type, not_null, default }'],
  [
    /^bench\.workloads\.[^.]+\.params\./,
    'expected one of { int: [lo, hi] }, { const: value }, { nurand: [A, x, y] }, { pick: [a, b, …] }, { text: [min, max] }',
  ],
];
