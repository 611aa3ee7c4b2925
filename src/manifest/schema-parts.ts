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
