// util/zod-fast.ts against zod itself: on values made from the schema's own definition (every
// branch: absent optionals, nulls, defaults, short tuples, extra keys) and on mutations of them,
// the fast parse says "valid" exactly when zod does and then gives zod's output, keys in the same
// order (the catalog's per-object hashes read that order). Real answers: every catalog read of the
// test suite compares both (CITUS_MIGRATE_CHECK_FAST_PARSE, set in vitest's config).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { catalogSchema } from '../../src/introspect/catalog-schema.js';
import { fastParser } from '../../src/util/zod-fast.js';

type Def = {
  type: string;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  items?: z.ZodType[];
  innerType?: z.ZodType;
  entries?: Record<string, unknown>;
  in?: z.ZodType;
  checks?: unknown[];
};
const defOf = (s: z.ZodType): Def => (s as unknown as { _zod: { def: Def } })._zod.def;
const optional = (s: z.ZodType) => ['optional', 'default'].includes(defOf(s).type);

/** Values the schema accepts (and some it strips: extra keys), from its definition. */
function valid(s: z.ZodType): fc.Arbitrary<unknown> {
  const d = defOf(s);
  switch (d.type) {
    case 'string':
      return fc.string({ maxLength: 4 });
    case 'boolean':
      return fc.boolean();
    case 'number':
      return (d.checks ?? []).length > 0
        ? fc.integer({ min: -3, max: 40 })
        : fc.double({ noNaN: true, noDefaultInfinity: true });
    case 'enum':
      return fc.constantFrom(...Object.values(d.entries!));
    case 'array':
      return fc.array(valid(d.element!), { maxLength: 3 });
    case 'pipe':
      return valid(d.in!);
    case 'nullable':
      return fc.option(valid(d.innerType!), { nil: null, freq: 3 });
    case 'optional':
    case 'default':
      return fc.option(valid(d.innerType!), { nil: undefined, freq: 3 });
    case 'tuple': {
      const items = d.items!;
      return fc.tuple(...items.map(valid), fc.boolean()).map((t) => {
        const cut = t.pop() && optional(items.at(-1)!) ? t.slice(0, -1) : t;
        return cut;
      });
    }
    case 'object': {
      const shape = d.shape!;
      const required = Object.keys(shape).filter((k) => !optional(shape[k]!));
      const record = fc.record(Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, valid(v)])), {
        requiredKeys: required,
      });
      return fc.tuple(record, fc.boolean()).map(([r, extra]) => (extra ? { ...r, extra: 1 } : r));
    }
    default:
      throw new Error(`no generator for ${d.type}`);
  }
}

/** Every place in a value: [parent, key] pairs. */
function places(v: unknown, out: [Record<string | number, unknown>, string | number][] = []) {
  if (typeof v === 'object' && v !== null)
    for (const k of Array.isArray(v) ? v.keys() : Object.keys(v)) {
      out.push([v as Record<string | number, unknown>, k]);
      places((v as Record<string | number, unknown>)[k], out);
    }
  return out;
}
const JUNK = [null, undefined, 'x', '', 0, -1, 1.5, 2 ** 60, true, false, [], {}, [1], { a: 1 }, 'DELETE', 'PUSH'];

/** zod's answer and the fast one agree: same success, and then equal output with keys in the same order. */
function agree(schema: z.ZodType, v: unknown): void {
  const parse = fastParser(schema)!;
  const want = schema.safeParse(structuredClone(v));
  const got = parse(structuredClone(v));
  expect(got.success).toBe(want.success);
  if (got.success && want.success) {
    expect(got.data).toStrictEqual(want.data);
    expect(JSON.stringify(got.data)).toBe(JSON.stringify(want.data));
  }
}

describe('fastParser', () => {
  it('compiles the catalog schema', () => expect(fastParser(catalogSchema)).toBeDefined());

  it('agrees with zod on catalog answers made from the schema', () => {
    fc.assert(
      fc.property(valid(catalogSchema), (v) => agree(catalogSchema, v)),
      { numRuns: 300, seed: 25 },
    );
  });

  it('agrees with zod on catalog answers with one value spoilt', () => {
    fc.assert(
      fc.property(valid(catalogSchema), fc.nat(), fc.constantFrom(...JUNK), (v, at, junk) => {
        const all = places(v);
        if (all.length === 0) return;
        const [parent, key] = all[at % all.length]!;
        if (junk === 'DELETE') delete parent[key];
        else if (junk === 'PUSH' && Array.isArray(parent)) parent.push(parent[0]);
        else parent[key] = junk;
        agree(catalogSchema, v);
      }),
      { numRuns: 3000, seed: 25 },
    );
  });

  it('refuses what is not the schema at the top, and a short or long tuple', () => {
    const parse = fastParser(catalogSchema)!;
    for (const v of [null, undefined, [], 'x', 1]) expect(parse(v).success).toBe(false);
    const t = z.tuple([z.string(), z.number(), z.string().optional()]);
    for (const v of [['a'], ['a', 1], ['a', 1, 'b'], ['a', 1, 'b', 'c'], ['a', 1, undefined], ['a', 1.5]]) agree(t, v);
  });

  it('gives each use of a default its own copy', () => {
    const parse = fastParser(z.object({ a: z.array(z.number()).default([]) }))!;
    const one = parse({});
    const two = parse({});
    expect(one.success && two.success).toBe(true);
    if (one.success && two.success) {
      one.data.a.push(1);
      expect(two.data.a).toEqual([]);
    }
  });

  it('is not used for what it does not check: zod keeps refinements, unions, records, formats and transforms that may refuse', () => {
    const refused = [
      z.object({ a: z.string().min(1) }),
      z.object({ a: z.union([z.string(), z.number()]) }),
      z.record(z.string(), z.number()),
      z.string().refine((s) => s.length > 0),
      z.object({ a: z.number().positive() }),
      z.object({ a: z.string().transform((s, ctx) => (ctx ? s.length : 0)) }),
      z.object({ a: z.array(z.string()).min(1) }),
      z.object({}).catchall(z.string()),
    ];
    for (const s of refused) expect(fastParser(s as z.ZodType)).toBeUndefined();
  });
});
