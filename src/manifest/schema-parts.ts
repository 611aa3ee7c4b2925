// Values several parts of the manifest schema share.
import { z } from 'zod';
import { identifierProblem } from '../sql/quote.js';
import { DURATION_PATTERN } from '../util/duration.js';

export const ident = z.string().superRefine((s, ctx) => {
  const why = identifierProblem(s);
  if (why) ctx.addIssue({ code: 'custom', message: `name ${JSON.stringify(s)} ${why}` });
});
export const shardCount = z
  .number()
  .int()
  .min(1, 'shard count must be between 1 and 64000')
  .max(64000, 'shard count must be between 1 and 64000');
export const duration = z.string().regex(DURATION_PATTERN, 'expected a duration such as 500ms, 30s, 5m or 1h');

/** An integer written where it reaches SQL: a bigint beyond 2^53 too (yaml-numbers.ts). */
export const bigInteger = z.union([z.number().int(), z.bigint()]);
/** An integer past 2^53 where the value is SQL text (a default, a partition bound): its digits. */
export const bigAsText = z.bigint().transform((v) => String(v));
/** An integer kept exactly, as its decimal text (the model's form of a sequence's options). */
const exactInt = bigInteger.transform((v) => String(v));

/** CACHE: values each session takes at once (at least 1), kept exactly. */
export const cacheSize = bigInteger.refine((n) => n >= 1, 'cache must be at least 1').transform((v) => String(v));

/** A sequence's START, INCREMENT, MINVALUE, MAXVALUE and CYCLE: `sequences:` and an identity column's options. */
export const sequenceOptions = {
  start: exactInt.optional().describe('START WITH'),
  increment: bigInteger
    .refine((n) => n !== 0, 'increment must not be zero')
    .transform((v) => String(v))
    .optional()
    .describe('INCREMENT BY (not zero)'),
  min: exactInt.optional().describe('MINVALUE'),
  max: exactInt.optional().describe('MAXVALUE'),
  cycle: z.boolean().optional().describe('CYCLE'),
};

/** Storage parameters by name (`toast.` for its TOAST table's), each a number, boolean or text. */
export const storageParametersSpec = z.record(
  z
    .string()
    .regex(
      /^(toast\.)?[a-z][a-z0-9_]*$/,
      'a storage parameter: fillfactor, autovacuum_enabled, toast.autovacuum_enabled…',
    ),
  z.union([z.number(), z.boolean(), z.string().min(1)]),
);

/** A column's SET STORAGE, SET STATISTICS target and attribute options (a table's, or an inherited column's own). */
export const columnStorage = z.enum(['plain', 'external', 'extended', 'main']);
export const statisticsTarget = z.number().int().min(0).max(10000);
export const attributeOptions = z.strictObject({
  n_distinct: z
    .number()
    .min(-1)
    .optional()
    .describe('the number of distinct values ANALYZE assumes (negative: a fraction of the rows)'),
  n_distinct_inherited: z.number().min(-1).optional().describe('the same for the table with its children'),
});
