// The manifest's table inheritance (INHERITS): a table's parents, and what the columns it
// inherits have of their own (resolve-inherits.ts reads them).
import { z } from 'zod';
import { attributeOptions, bigAsText, columnStorage, ident, statisticsTarget } from './schema-parts.js';

export const inheritsSpec = z
  .array(z.string().min(1))
  .min(1)
  .optional()
  .describe(
    "INHERITS: the tables (manifest keys, in order) it inherits from; their columns come first and are not listed under `columns` (a column listed there under a parent's name is merged, its type the parent's); a table that inherits or is inherited stays local (Citus distributes neither)",
  );

export const inheritedColumnsSpec = z
  .record(
    ident,
    z.strictObject({
      default: z
        .union([z.string(), z.number(), bigAsText, z.boolean(), z.null()])
        .optional()
        .describe('its own DEFAULT (`null`: none, where its parent has one)'),
      not_null: z.boolean().optional().describe('NOT NULL where its parent has none'),
      statistics: statisticsTarget
        .optional()
        .describe("its own SET STATISTICS (a parent's SET STATISTICS reaches it, then this is set again)"),
      storage: columnStorage
        .optional()
        .describe("its own SET STORAGE, where it is not its parent's (a parent's reaches it, then this is set again)"),
      options: attributeOptions
        .optional()
        .describe('its own attribute options (ALTER TABLE ONLY … ALTER COLUMN … SET (n_distinct = …))'),
    }),
  )
  .optional()
  .describe(
    'what a column it inherits has of its own, beside what its parent gives it (ALTER TABLE ONLY … ALTER COLUMN … SET DEFAULT, SET NOT NULL, SET STATISTICS, SET STORAGE, SET (…)); only with inherits',
  );
