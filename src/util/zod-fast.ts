// A fast path for the zod schemas of large documents read once a run (the catalog's answer: 11 MB
// at perf:plan's scale; the manifest): one walk of the schema building zod's output (keys in zod's
// order, defaults, transforms) without zod's per-value payloads: ~75-100 ms where zod takes 150-230.
// It follows zod 4.6's own rules (absent keys by optin/optout, a union's first match, records) and
// runs each check through zod's own function; on a value it refuses, zod runs and says why. Never
// more lenient than zod (test/unit/zod-fast.test.ts); a schema it does not know keeps zod.
import type { z } from 'zod';

type Check = (v: unknown) => unknown;
/** What a checker returns for a value the schema refuses (a value no document holds). */
const INVALID: unique symbol = Symbol('invalid');

interface ZodCheck {
  readonly _zod: {
    readonly def: { readonly when?: (payload: Payload) => boolean };
    readonly check: (payload: Payload) => unknown;
  };
}
type Payload = { value: unknown; issues: unknown[] };
/** The zod schema's definition, as far as this module reads it. */
interface Def {
  readonly type: string;
  readonly shape?: Record<string, z.ZodType>;
  readonly catchall?: z.ZodType;
  readonly element?: z.ZodType;
  readonly items?: readonly z.ZodType[];
  readonly rest?: z.ZodType | null;
  readonly options?: readonly z.ZodType[];
  readonly keyType?: z.ZodType;
  readonly valueType?: z.ZodType;
  readonly mode?: string;
  readonly innerType?: z.ZodType;
  readonly defaultValue?: unknown;
  readonly in?: z.ZodType;
  readonly out?: z.ZodType;
  readonly transform?: (v: unknown, ctx: unknown) => unknown;
  readonly checks?: readonly ZodCheck[];
}
interface Internals {
  readonly def: Def;
  readonly optin?: string;
  readonly optout?: string;
  readonly values?: unknown;
}

const internals = (s: z.ZodType): Internals => (s as unknown as { _zod: Internals })._zod;

/** The zod whose rules this follows. */
export const CHECKED_ZOD = { major: 4, minor: 6 } as const;

/** Refused at compile time: the schema uses what this does not check. */
class Unsupported extends Error {}

/** zod's checks of a value of the right type (lengths, bounds, formats, refinements), each by zod's own function. */
function withChecks(def: Def, check: Check): Check {
  const checks = def.checks ?? [];
  if (checks.length === 0) return check;
  return (v) => {
    const r = check(v);
    if (r === INVALID) return INVALID;
    const payload: Payload = { value: r, issues: [] };
    for (const ch of checks) {
      if (ch._zod.def.when && !ch._zod.def.when(payload)) continue;
      if (ch._zod.check(payload) instanceof Promise || payload.issues.length > 0) return INVALID;
    }
    return payload.value; // (a check may overwrite it: .trim())
  };
}

/** An object's field, as zod's handlePropertyResult treats it. */
function field(key: string, s: z.ZodType): (input: Record<string, unknown>, out: Record<string, unknown>) => boolean {
  const check = compile(s);
  const { optin, optout } = internals(s);
  const optionalOut = optout === 'optional';
  return (input, out) => {
    const present = key in input;
    if (!present && optionalOut && optin === 'optional') return true;
    const r = check(input[key]);
    if (r === INVALID) return optin !== undefined && optionalOut && !present;
    if (!present && optin === undefined) return false;
    if (r !== undefined) out[key] = r;
    else if (present || (optin === 'defaulted' && !optionalOut)) out[key] = undefined;
    return true;
  };
}

function objectCheck(def: Def): Check {
  const catchall = def.catchall === undefined ? undefined : internals(def.catchall).def.type;
  if (catchall !== undefined && catchall !== 'never') throw new Unsupported('object catchall');
  const shape = def.shape ?? {};
  if (Object.getOwnPropertySymbols(shape).length > 0) throw new Unsupported('symbol keys');
  const keys = new Set(Object.keys(shape));
  const fields = Object.entries(shape)
    .filter(([key]) => key !== '__proto__')
    .map(([key, s]) => field(key, s));
  return (v) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return INVALID;
    const input = v as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const f of fields) if (!f(input, out)) return INVALID;
    // A strict object: any other key is refused.
    if (catchall === 'never') for (const k in input) if (!keys.has(k)) return INVALID;
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
  const schemas = def.items ?? [];
  const items = schemas.map((s) => compile(s));
  // zod's shortest tuple: up to its last item that is not optional.
  let required = items.length;
  while (required > 0 && internals(schemas[required - 1]!).optin !== undefined) required--;
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

/** A record whose keys are a constraint (a string schema), not a list (an enum). */
function recordCheck(def: Def): Check {
  if (internals(def.keyType!).values !== undefined || (def.mode !== undefined && def.mode !== 'strict'))
    throw new Unsupported('record of listed keys');
  const key = compile(def.keyType!);
  const value = compile(def.valueType!);
  return (v) => {
    const proto = typeof v === 'object' && v !== null ? Object.getPrototypeOf(v) : undefined;
    if (Array.isArray(v) || (proto !== Object.prototype && proto !== null)) return INVALID;
    const input = v as Record<string, unknown>;
    const out = Object.create(null) as Record<string, unknown>; // as util/dict.ts's: keyed by names
    for (const k of Object.keys(input)) {
      if (k === '__proto__') continue;
      const outKey = key(k);
      if (outKey === INVALID || typeof outKey !== 'string') return INVALID;
      const r = value(input[k]);
      if (r === INVALID) return INVALID;
      if (outKey !== '__proto__') out[outKey] = r;
    }
    return out;
  };
}

function unionCheck(def: Def): Check {
  const options = (def.options ?? []).map((s) => compile(s));
  // zod's answer is the first option's that succeeds.
  return (v) => {
    for (const o of options) {
      const r = o(v);
      if (r !== INVALID) return r;
    }
    return INVALID;
  };
}

function pipeCheck(def: Def): Check {
  const input = compile(def.in!);
  const out = internals(def.out!).def;
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

/** A value of zod's own sets (an enum's, a literal's), compared as zod does (a Set's). */
function oneOf(values: readonly unknown[]): Check {
  const set = new Set(values);
  return (v) => (set.has(v) ? v : INVALID);
}

function compileType(schema: z.ZodType, def: Def): Check {
  switch (def.type) {
    case 'string':
      return (v) => (typeof v === 'string' ? v : INVALID);
    case 'boolean':
    case 'bigint':
      return (v) => (typeof v === def.type ? v : INVALID);
    case 'number':
      return (v) => (typeof v === 'number' && Number.isFinite(v) ? v : INVALID);
    case 'enum':
    case 'literal': {
      const values = internals(schema).values;
      if (!(values instanceof Set)) throw new Unsupported(`${def.type} without values`);
      return oneOf([...(values as Set<unknown>)]);
    }
    case 'object':
      return objectCheck(def);
    case 'array':
      return arrayCheck(def);
    case 'tuple':
      return tupleCheck(def);
    case 'record':
      return recordCheck(def);
    case 'union':
      return unionCheck(def);
    case 'pipe':
      return pipeCheck(def);
    case 'nullable': {
      const inner = compile(def.innerType!);
      return (v) => (v === null ? null : inner(v));
    }
    case 'optional': {
      const inner = compile(def.innerType!);
      // Only a default inside gives absence a value.
      const defaulted = internals(def.innerType!).optin === 'defaulted';
      return (v) => (v === undefined && !defaulted ? undefined : inner(v));
    }
    case 'default': {
      const inner = compile(def.innerType!);
      // def.defaultValue is zod's getter: a copy for each use.
      return (v) => {
        if (v === undefined) return def.defaultValue;
        const r = inner(v);
        return r === undefined ? def.defaultValue : r;
      };
    }
    default:
      throw new Unsupported(`${def.type} (${String(schema.description ?? '')})`);
  }
}

function compile(schema: z.ZodType): Check {
  const def = internals(schema).def;
  return withChecks(def, compileType(schema, def));
}

/**
 * zod's safeParse of `schema` (its options too), through the fast walk first: zod itself runs
 * only for a value the walk refuses, to say why (or to accept what the walk is stricter about).
 */
export function fastSafeParse<S extends z.ZodType>(
  schema: S,
): (v: unknown, options?: Parameters<S['safeParse']>[1]) => ReturnType<S['safeParse']> {
  let fast: ((v: unknown) => FastResult<z.output<S>>) | undefined | null = null;
  return (v, options) => {
    if (fast === null) fast = fastParser(schema);
    const r = fast?.(v);
    return (r?.success ? r : schema.safeParse(v, options)) as ReturnType<S['safeParse']>;
  };
}

/** fastParser's answer: zod's output, or only that the value is not valid (zod says why). */
export type FastResult<T> = { readonly success: true; readonly data: T } | { readonly success: false };

/**
 * A parse of `schema` that gives zod's output for a valid value and only "not valid" for any
 * other; undefined when the schema uses what this does not check (then use zod).
 */
export function fastParser<S extends z.ZodType>(schema: S): ((v: unknown) => FastResult<z.output<S>>) | undefined {
  // The rules above are zod 4.6's (read in its source, checked by the tests): under another zod
  // (a library user's newer one), zod itself, and the tests fail until they are checked again.
  const version = (schema as unknown as { _zod: { version?: { major: number; minor: number } } })._zod.version;
  if (version?.major !== CHECKED_ZOD.major || version.minor !== CHECKED_ZOD.minor) return undefined;
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

/**
 * The test suites' check (CITUS_MIGRATE_CHECK_FAST_PARSE=1, set by vitest's configs) that zod reads
 * every real document they meet as the fast walk did: the same output, keys in the same order.
 */
export function sameAsZod(schema: z.ZodType, raw: unknown, fast: unknown, what: string): void {
  if (process.env.CITUS_MIGRATE_CHECK_FAST_PARSE !== '1') return;
  const zod = schema.safeParse(raw, { jitless: true });
  if (!zod.success || JSON.stringify(zod.data) !== JSON.stringify(fast))
    throw new Error(`internal: the fast parse of ${what} differs from zod's`);
}
