// util/zod-fast.ts against zod itself: on values made from the schema's own definition (every
// branch: absent optionals, nulls, defaults, short tuples, extra keys) and on mutations of them,
// the fast parse says "valid" exactly when zod does and then gives zod's output, keys in the same
// order (the catalog's per-object hashes read that order). Real answers: every catalog read of the
// test suite compares both (CITUS_MIGRATE_CHECK_FAST_PARSE, set in vitest's config).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import yaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { catalogSchema } from '../../src/model/catalog-doc.js';
import { manifestSchema } from '../../src/manifest/schema.js';
import { CHECKED_ZOD, fastParser } from '../../src/util/zod-fast.js';

type Def = {
  type: string;
  values?: unknown[];
  options?: z.ZodType[];
  valueType?: z.ZodType;
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
      return fc.oneof(fc.string({ maxLength: 4 }), fc.constantFrom('5m', '1 day', 'public', 'x.y', 'A"b'));
    case 'boolean':
      return fc.boolean();
    case 'number':
      return (d.checks ?? []).length > 0
        ? fc.integer({ min: -3, max: 40 })
        : fc.double({ noNaN: true, noDefaultInfinity: true });
    case 'bigint':
      // What a YAML reader gives for an integer past 2^53 (manifest/yaml-numbers.ts), and small ones.
      return fc.oneof(fc.bigInt({ min: -3n, max: 40n }), fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n }));
    case 'enum':
      return fc.constantFrom(...Object.values(d.entries!));
    case 'literal':
      return fc.constantFrom(...d.values!);
    case 'union':
      return fc.oneof(...d.options!.map(valid));
    case 'record':
      return fc.dictionary(fc.constantFrom('a', 'b_1', 'C', '1x', ''), valid(d.valueType!), { maxKeys: 2 });
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
const JUNK = [
  null,
  undefined,
  'x',
  '',
  0,
  -1,
  1.5,
  2 ** 60,
  64001,
  true,
  false,
  [],
  {},
  [1],
  { a: 1 },
  '1 day',
  'bad name\u0000',
  'DELETE',
  'PUSH',
];

/** Spoils one place of a value (the at-th, in walk order) with junk: a wrong value, a key deleted, an item more. */
function spoil(v: unknown, at: number, junk: unknown): void {
  const all = places(v);
  if (all.length === 0) return;
  const [parent, key] = all[at % all.length]!;
  if (junk === 'DELETE') delete parent[key];
  else if (junk === 'PUSH' && Array.isArray(parent)) parent.push(parent[0]);
  else parent[key] = junk;
}

/** The YAML files under the repository's folders. */
function yamlFiles(dirs: string[]): string[] {
  return dirs.flatMap((d) =>
    readdirSync(d).flatMap((n) => {
      const p = join(d, n);
      if (statSync(p).isDirectory()) return n === 'node_modules' ? [] : yamlFiles([p]);
      return /\.ya?ml$/.test(n) ? [p] : [];
    }),
  );
}

/**
 * The fast output with its records' objects as zod makes them: the fast walk gives a record no
 * prototype (util/dict.ts: a name such as `constructor` is a key like any other), zod a plain one.
 */
function asZodMakesIt(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(asZodMakesIt);
  if (typeof v !== 'object' || v === null) return v;
  const out: Record<string, unknown> = Object.getPrototypeOf(v) === null ? {} : Object.create(Object.getPrototypeOf(v));
  for (const [k, x] of Object.entries(v)) out[k] = asZodMakesIt(x);
  return out;
}

/** zod's answer and the fast one agree: same success, and then equal output with keys in the same order. */
function agree(schema: z.ZodType, v: unknown): void {
  const parse = fastParser(schema)!;
  const want = schema.safeParse(structuredClone(v));
  const got = parse(structuredClone(v));
  expect(got.success).toBe(want.success);
  if (got.success && want.success) {
    expect(asZodMakesIt(got.data)).toStrictEqual(want.data);
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
        spoil(v, at, junk);
        agree(catalogSchema, v);
      }),
      { numRuns: 3000, seed: 25 },
    );
  });

  it('compiles the manifest schema', () => expect(fastParser(manifestSchema)).toBeDefined());

  it('agrees with zod on manifests made from the schema, and with one value spoilt', () => {
    fc.assert(
      fc.property(valid(manifestSchema), (v) => agree(manifestSchema, v)),
      { numRuns: 300, seed: 25 },
    );
    fc.assert(
      fc.property(valid(manifestSchema), fc.nat(), fc.constantFrom(...JUNK), (v, at, junk) => {
        spoil(v, at, junk);
        agree(manifestSchema, v);
      }),
      { numRuns: 2000, seed: 25 },
    );
  });

  it("agrees with zod on the repository's manifests (valid and refused ones), and with one value spoilt", () => {
    const docs = yamlFiles(['test', 'templates']).flatMap((f) => {
      try {
        return [yaml.load(readFileSync(f, 'utf8'))];
      } catch {
        return [];
      }
    });
    const manifests = docs.filter((d) => typeof d === 'object' && d !== null && 'version' in d);
    expect(manifests.length).toBeGreaterThan(150);
    let valid = 0;
    for (const m of manifests) {
      agree(manifestSchema, m);
      if (manifestSchema.safeParse(m).success) valid++;
    }
    // Most are refused for what resolving them finds, not by the schema: both kinds are here.
    expect(valid).toBeGreaterThan(50);
    expect(manifests.length - valid).toBeGreaterThan(10);
    fc.assert(
      fc.property(fc.nat(manifests.length - 1), fc.nat(), fc.constantFrom(...JUNK), (i, at, junk) => {
        const v = structuredClone(manifests[i]);
        spoil(v, at, junk);
        agree(manifestSchema, v);
      }),
      { numRuns: 5000, seed: 25 },
    );
  });

  it("puts a table's columns in attnum order, whatever order the query gives them in, and names key columns by number", () => {
    const col = (num: number, name: string) => ({
      num,
      name,
      type: 'int',
      notNull: false,
      default: null,
      identity: '',
      generated: '',
    });
    const raw = {
      server: { versionNum: 150000, version: '15', database: 'd', citus: null },
      schemas: ['public'],
      tables: [
        {
          schema: 'public',
          name: 't',
          columns: [col(3, 'c'), col(1, 'a'), col(2, 'b')],
          constraints: [
            {
              name: 'k',
              type: 'u',
              columns: [3, 1],
              refSchema: null,
              refTable: null,
              refColumns: null,
              onDelete: 'a',
              onUpdate: 'a',
            },
          ],
          indexes: [],
        },
      ],
      sequences: [],
      routines: [],
      nodes: [],
    };
    for (const parsed of [catalogSchema.safeParse(raw), fastParser(catalogSchema)!(raw)]) {
      expect(parsed.success).toBe(true);
      if (!parsed.success) continue;
      expect(parsed.data.tables[0]!.columns.map((c) => c.name)).toEqual(['a', 'b', 'c']);
      expect(parsed.data.tables[0]!.constraints[0]!.columns).toEqual(['c', 'a']);
    }
  });

  it('refuses what is not the schema at the top, and a short or long tuple', () => {
    const parse = fastParser(catalogSchema)!;
    for (const v of [null, undefined, [], 'x', 1]) expect(parse(v).success).toBe(false);
    const t = z.tuple([z.string(), z.number(), z.string().optional()]);
    for (const v of [['a'], ['a', 1], ['a', 1, 'b'], ['a', 1, 'b', 'c'], ['a', 1, undefined], ['a', 1.5]]) agree(t, v);
  });

  it('is not used under another zod than the one whose rules it follows', () => {
    const schema = z.object({ a: z.string() });
    expect(fastParser(schema)).toBeDefined();
    const other = z.object({ a: z.string() });
    (other._zod as { version: unknown }).version = { major: 4, minor: CHECKED_ZOD.minor + 1, patch: 0 };
    expect(fastParser(other)).toBeUndefined();
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

  it("runs zod's own checks: lengths, bounds, formats, refinements, a union's first match, a record's keys", () => {
    const cases: [z.ZodType, unknown[]][] = [
      [z.string().min(2), ['ab', 'a', '']],
      [z.string().regex(/^\d+s$/), ['5s', '5m']],
      [
        z
          .string()
          .superRefine((s, ctx) => (s.includes(' ') ? ctx.addIssue({ code: 'custom', message: 'no' }) : undefined)),
        ['ab', 'a b'],
      ],
      [z.number().int().min(1).max(5), [1, 5, 0, 6, 2.5]],
      [z.number().refine((n) => n !== 0), [1, 0]],
      [z.array(z.string()).min(1), [['a'], []]],
      [
        z.union([z.strictObject({ a: z.string() }), z.object({ a: z.number() })]),
        [{ a: 'x' }, { a: 1, b: 2 }, { a: 'x', b: 1 }, { a: true }],
      ],
      [z.record(z.string().min(1), z.number()), [{ a: 1 }, { '': 1 }, { a: 'x' }, [], {}]],
      [z.literal(1), [1, 2, '1']],
      [z.strictObject({ a: z.string().optional() }), [{}, { a: undefined }, { a: 'x' }, { b: 1 }]],
      [z.object({ a: z.string().optional().default('d') }), [{}, { a: undefined }, { a: 'x' }]],
      [z.object({ a: z.string().nullable().optional() }), [{}, { a: null }, { a: 1 }]],
    ];
    for (const [schema, values] of cases) {
      expect(fastParser(schema)).toBeDefined();
      for (const v of values) agree(schema, v);
    }
  });

  it('is not used for what it does not check: zod keeps intersections, lazy schemas, catchalls and transforms that may refuse', () => {
    const refused = [
      z.object({ a: z.intersection(z.object({ b: z.string() }), z.object({ c: z.string() })) }),
      z.lazy(() => z.string()),
      z.object({}).catchall(z.string()),
      z.object({ a: z.string().transform((s, ctx) => (ctx ? s.length : 0)) }),
      z.object({ a: z.any() }),
      z.date(),
    ];
    for (const s of refused) expect(fastParser(s as z.ZodType)).toBeUndefined();
  });
});
