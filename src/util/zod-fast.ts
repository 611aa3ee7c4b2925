// A fast path for zod schemas that parse large, machine-made documents (the catalog query's
// answer: 11 MB at perf:plan's scale). zod's parse records a payload and an issue list per value
// and compiles checkers with new Function: ~150-200 ms on that answer the first time. This walks
// the same schema once, building the same output (keys in the shape's order, defaults, transforms)
// and nothing else: ~25 ms. It says only "valid" or "not": on "not", the caller runs zod itself for
// its error, so messages are zod's. It is never more lenient than zod (test/unit/zod-fast.test.ts
// compares both on every value of a real answer and on mutations of it); a schema using anything
// this does not know (a refinement, a union, a record…) is refused when compiled, and the caller
// keeps zod.
import type { z } from 'zod';

type Check = (v: unknown) => unknown;
/** What a checker returns for a value the schema refuses (a value no document holds). */
const INVALID: unique symbol = Symbol('invalid');

/** The zod schema's definition, as far as this module reads it. */
interface Def {
  readonly type: string;
  readonly shape?: Record<string, z.ZodType>;
  readonly catchall?: unknown;
  readonly element?: z.ZodType;
  readonly items?: readonly z.ZodType[];
  readonly rest?: unknown;
  readonly innerType?: z.ZodType;
  readonly defaultValue?: unknown;
  readonly entries?: Record<string, unknown>;
  readonly in?: z.ZodType;
  readonly out?: z.ZodType;
  readonly transform?: (v: unknown, ctx: unknown) => unknown;
  readonly checks?: readonly { _zod: { def: { check: string; format?: string } } }[];
}

const defOf = (s: z.ZodType): Def => (s as unknown as { _zod: { def: Def } })._zod.def;

/** Refused at compile time: the schema uses what this module does not check. */
export class Unsupported extends Error {}

/** The checks a number may carry: none, or zod's `.int()` (format safeint). */
function numberCheck(def: Def): Check {
  const checks = def.checks ?? [];
  if (checks.length === 0) return (v) => (typeof v === 'number' && Number.isFinite(v) ? v : INVALID);
  const [only] = checks;
  if (checks.length === 1 && only!._zod.def.check === 'number_format' && only!._zod.def.format === 'safeint')
    return (v) => (Number.isSafeInteger(v) ? v : INVALID);
  throw new Unsupported('number checks');
}

/** Whether a value is optional in zod's sense (an absent key or a short tuple may omit it). */
const isOptional = (s: z.ZodType): boolean => {
  const t = defOf(s).type;
  return t === 'optional' || t === 'default';
};

function objectCheck(def: Def): Check {
  if (def.catchall !== undefined) throw new Unsupported('object catchall');
  const fields = Object.entries(def.shape ?? {}).map(([key, s]) => ({
    key,
    check: compile(s),
    optional: isOptional(s),
  }));
  return (v) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return INVALID;
    const input = v as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const f of fields) {
      const present = f.key in input;
      const r = f.check(input[f.key]);
      if (r === INVALID) return INVALID;
      // zod leaves an optional key out of its output when the input has none and it gives no value.
      if (present || r !== undefined || !f.optional) out[f.key] = r;
    }
    return out;
  };
}

function arrayCheck(def: Def): Check {
  const element = compile(def.element!);
  return (v) => {
    if (!Array.isArray(v)) return INVALID;
    const out = new Array<unknown>(v.length);
    for (let i = 0; i < v.length; i++) {
      const r = element(v[i]);
      if (r === INVALID) return INVALID;
      out[i] = r;
    }
    return out;
  };
}

function tupleCheck(def: Def): Check {
  if (def.rest !== null && def.rest !== undefined) throw new Unsupported('tuple rest');
  const items = (def.items ?? []).map((s) => compile(s));
  // zod's shortest tuple: up to its last item that is not optional.
  let required = items.length;
  while (required > 0 && isOptional(def.items![required - 1]!)) required--;
  return (v) => {
    if (!Array.isArray(v) || v.length > items.length || v.length < required) return INVALID;
    const out: unknown[] = [];
    for (let i = 0; i < items.length; i++) {
      const r = items[i]!(v[i]);
      if (r === INVALID) return INVALID;
      if (i < v.length || r !== undefined) out.push(r);
    }
    return out;
  };
}

function enumCheck(def: Def): Check {
  const values = new Set(Object.values(def.entries ?? {}));
  return (v) => (values.has(v) ? v : INVALID);
}

function pipeCheck(def: Def): Check {
  const input = compile(def.in!);
  const out = defOf(def.out!);
  if (out.type !== 'transform' || !out.transform) throw new Unsupported('pipe into a schema');
  // zod passes a transform a context to report issues through: one that takes it may refuse a
  // value, which this cannot see.
  if (out.transform.length > 1) throw new Unsupported('transform with a context');
  const transform = out.transform;
  return (v) => {
    const r = input(v);
    return r === INVALID ? INVALID : transform(r, undefined);
  };
}

/** A copy of a default value, as zod gives each use its own (an array default is mutable). */
const fresh = (d: unknown): unknown => (typeof d === 'object' && d !== null ? structuredClone(d) : d);

function compile(schema: z.ZodType): Check {
  const def = defOf(schema);
  switch (def.type) {
    case 'string':
      if ((def.checks ?? []).length > 0) throw new Unsupported('string checks');
      return (v) => (typeof v === 'string' ? v : INVALID);
    case 'boolean':
      return (v) => (typeof v === 'boolean' ? v : INVALID);
    case 'number':
      return numberCheck(def);
    case 'enum':
      return enumCheck(def);
    case 'object':
      return objectCheck(def);
    case 'array':
      if ((def.checks ?? []).length > 0) throw new Unsupported('array checks');
      return arrayCheck(def);
    case 'tuple':
      return tupleCheck(def);
    case 'pipe':
      return pipeCheck(def);
    case 'nullable': {
      const inner = compile(def.innerType!);
      return (v) => (v === null ? null : inner(v));
    }
    case 'optional': {
      const inner = compile(def.innerType!);
      return (v) => (v === undefined ? undefined : inner(v));
    }
    case 'default': {
      const inner = compile(def.innerType!);
      const value = def.defaultValue;
      return (v) => (v === undefined ? fresh(value) : inner(v));
    }
    default:
      throw new Unsupported(def.type);
  }
}

/** fastParser's answer: zod's output, or only that the value is not valid (zod says why). */
export type FastResult<T> = { readonly success: true; readonly data: T } | { readonly success: false };

/**
 * A parse of `schema` that gives zod's output for a valid value and only "not valid" for any
 * other; undefined when the schema uses what this does not check (then use zod).
 */
export function fastParser<S extends z.ZodType>(schema: S): ((v: unknown) => FastResult<z.output<S>>) | undefined {
  let check: Check;
  try {
    check = compile(schema);
  } catch (e) {
    if (e instanceof Unsupported) return undefined;
    throw e;
  }
  return (v) => {
    const r = check(v);
    return r === INVALID ? { success: false } : { success: true, data: r as z.output<S> };
  };
}
