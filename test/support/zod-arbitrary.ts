// Values a zod schema accepts, made from its own definition (every branch: absent optionals,
// nulls, defaults, short tuples, extra keys): property tests of what reads documents the schema
// describes.
import fc from 'fast-check';
import type { z } from 'zod';

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

/** Values the schema accepts (and, with `extraKeys`, some it strips: extra keys), from its definition. */
export function valid(s: z.ZodType, extraKeys = true): fc.Arbitrary<unknown> {
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
      return fc.oneof(...d.options!.map((o) => valid(o, extraKeys)));
    case 'record':
      return fc.dictionary(fc.constantFrom('a', 'b_1', 'C', '1x', ''), valid(d.valueType!, extraKeys), { maxKeys: 2 });
    case 'array':
      return fc.array(valid(d.element!, extraKeys), { maxLength: 3 });
    case 'pipe':
      return valid(d.in!, extraKeys);
    case 'nullable':
      return fc.option(valid(d.innerType!, extraKeys), { nil: null, freq: 3 });
    case 'optional':
    case 'default':
      return fc.option(valid(d.innerType!, extraKeys), { nil: undefined, freq: 3 });
    case 'tuple': {
      const items = d.items!;
      return fc.tuple(...items.map((o) => valid(o, extraKeys)), fc.boolean()).map((t) => {
        const cut = t.pop() && optional(items.at(-1)!) ? t.slice(0, -1) : t;
        return cut;
      });
    }
    case 'object': {
      const shape = d.shape!;
      const required = Object.keys(shape).filter((k) => !optional(shape[k]!));
      const record = fc.record(Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, valid(v, extraKeys)])), {
        requiredKeys: required,
      });
      return fc.tuple(record, fc.boolean()).map(([r, extra]) => (extra && extraKeys ? { ...r, extra: 1 } : r));
    }
    default:
      throw new Error(`no generator for ${d.type}`);
  }
}
