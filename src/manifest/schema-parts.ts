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

/** A sequence's START, INCREMENT, MINVALUE, MAXVALUE and CYCLE: `sequences:` and an identity column's options. */
export const sequenceOptions = {
  start: z.number().int().optional().describe('START WITH'),
  increment: z
    .number()
    .int()
    .refine((n) => n !== 0, 'increment must not be zero')
    .optional()
    .describe('INCREMENT BY (not zero)'),
  min: z.number().int().optional().describe('MINVALUE'),
  max: z.number().int().optional().describe('MAXVALUE'),
  cycle: z.boolean().optional().describe('CYCLE'),
};
