// What the library's functions accept, as zod schemas: a program calling them from JavaScript
// (no compiler to check its types) gets a CmError `bad_options` naming the function, the option's
// path and what is wrong, never a TypeError from deep inside (`allowed.has is not a function`).
// The parsed options are normalised: `allowHazards` as an array or a Set becomes a Set.
import { z } from 'zod';
import { OptionsError } from '../errors.js';
import { HAZARDS, type Hazard } from '../plan/steps/steps.js';

const fn = z.custom<(...args: never[]) => unknown>((v) => typeof v === 'function', 'expected a function');
const ms = z.number().int().min(0);

/** A database: a URL, or a ConnectionTarget (connectionTarget() builds one). */
export const targetSchema = z.union(
  [z.string().min(1), z.looseObject({ config: z.looseObject({}), label: z.string(), tlsFallback: z.boolean() })],
  { error: 'expected a database URL or a ConnectionTarget (connectionTarget() builds one)' },
);

/** A manifest: its file's path, or one loadManifest loaded. */
export const manifestInputSchema = z.union(
  [z.string().min(1), z.looseObject({ file: z.string(), desired: z.looseObject({}), manifest: z.looseObject({}) })],
  { error: 'expected the path of a manifest file or a manifest loadManifest loaded' },
);

const hazard = z.enum(HAZARDS as unknown as [Hazard, ...Hazard[]]);

export const planOptionsSchema = z.strictObject({
  online: z.boolean().optional(),
  prove: z.union([z.boolean(), z.strictObject({ on: targetSchema })]).optional(),
});

export const applyOptionsSchema = z.strictObject({
  // A Set is read as its values: each one located by its index.
  allowHazards: z
    .preprocess(
      (v) => (v instanceof Set ? [...(v as Set<unknown>)] : v),
      z.array(hazard, { error: 'expected an array or a Set of hazards' }),
    )
    .transform((v): ReadonlySet<Hazard> => new Set(v))
    .optional(),
  lockTimeoutMs: ms.optional(),
  statementTimeoutMs: ms.optional(),
  retries: z.number().int().min(0).optional(),
  waitMs: ms.optional(),
  rehearse: z.boolean().optional(),
  online: z.boolean().optional(),
  shards: z.boolean().optional(),
  approve: fn.optional(),
  onInterrupt: fn.optional(),
});

/** apply()'s and bench()'s `onEvent`: one function that receives every event (ApplyEvent, BenchEvent). */
export const eventHandlerSchema = fn.optional();

export const savedPlanSourceSchema = z.looseObject({
  savedPlan: z.looseObject({}),
  manifest: manifestInputSchema,
  planFile: z.string().optional(),
});

const positive = z.number().positive();
export const benchOptionsSchema = z.strictObject({
  clients: z.number().int().min(1).max(10000).optional(),
  duration: positive.optional(),
  transactions: z.number().int().min(1).optional(),
  warmup: ms.optional(),
  workload: z.array(z.string().min(1)).optional(),
  seed: z.number().int().optional(),
  requireDelegation: z.boolean().optional(),
  tickMs: z.number().int().min(1).optional(),
  minTps: z.number().min(0).optional(),
  maxP95: z.number().min(0).optional(),
  maxErrorRate: z.number().min(0).max(1).optional(),
  maxRegression: z.number().min(0).max(1).optional(),
  baseline: z.strictObject({ name: z.string(), report: z.looseObject({}) }).optional(),
});

export const introspectOptionsSchema = z.strictObject({
  defaultSchema: z.string().min(1).optional(),
  files: z.boolean().optional(),
});

export const historyLimitSchema = z.number().int().min(1);
export const applyIdSchema = z.number().int().min(1);

/**
 * `value` parsed by `schema`, as the option `name` of the library function `fn`; throws
 * OptionsError (code bad_options) naming each problem's path.
 */
export function checkOption<S extends z.ZodType>(fnName: string, name: string, schema: S, value: unknown): z.output<S> {
  const r = schema.safeParse(value, { reportInput: true });
  if (r.success) return r.data;
  const problems = r.error.issues.map((i) => {
    const path = [name, ...i.path.map((s) => (typeof s === 'number' ? `[${s}]` : `.${String(s)}`))].join('');
    const message =
      i.code === 'unrecognized_keys'
        ? `unknown option${i.keys.length > 1 ? 's' : ''} ${i.keys.map((k) => JSON.stringify(k)).join(', ')}`
        : i.code === 'invalid_type' && i.input === undefined
          ? 'is required'
          : i.message;
    return { path, message };
  });
  throw new OptionsError(fnName, problems);
}
