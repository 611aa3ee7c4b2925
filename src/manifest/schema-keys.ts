// The key parts of the manifest schema (primary keys, unique constraints, foreign keys, indexes): split from
// schema-table.ts.
import { z } from 'zod';
import { ident } from './schema-parts.js';
import type { Deferral, Key } from '../model/types.js';

const fkAction = z.enum(['no action', 'restrict', 'cascade', 'set null', 'set default']);
const deferrable = z
  .boolean()
  .optional()
  .describe('DEFERRABLE: `SET CONSTRAINTS … DEFERRED` can move the check to COMMIT (default: NOT DEFERRABLE)');
const initiallyDeferred = z
  .boolean()
  .optional()
  .describe('INITIALLY DEFERRED: checked at COMMIT unless a transaction says otherwise (implies `deferrable`)');
export const foreignKey = z.strictObject({
  columns: z.array(ident).min(1).describe('referencing columns'),
  references: z.string().min(1).describe('the referenced table: a manifest key'),
  ref_columns: z.array(ident).min(1).describe('referenced columns (a primary key or unique key of that table)'),
  on_delete: fkAction.optional().describe('ON DELETE action'),
  on_update: fkAction.optional().describe('ON UPDATE action'),
  match: z
    .enum(['simple', 'full'])
    .optional()
    .describe('MATCH FULL: a row with some key columns NULL must have all of them NULL (default MATCH SIMPLE)'),
  name: ident.optional().describe("constraint name (default: PostgreSQL's `<table>_<column>_fkey`)"),
  deferrable,
  initially_deferred: initiallyDeferred,
  not_valid: z
    .boolean()
    .optional()
    .describe(
      'NOT VALID: added without checking the rows already there, and never validated by a plan (a key already validated stays so)',
    ),
});

export const index = z.strictObject({
  columns: z.array(ident).min(1).describe('indexed columns, ascending (other shapes: CREATE INDEX in a `sql:` file)'),
  unique: z.boolean().optional().describe('UNIQUE (on a distributed table it must include the distribution column)'),
  name: ident.optional().describe("index name (default: PostgreSQL's `<table>_<columns>_idx`)"),
  using: z.enum(['btree', 'hash', 'gin', 'gist', 'brin', 'spgist']).optional().describe('index method (default btree)'),
  renamed_from: ident
    .optional()
    .describe(
      "the index's former name (with `name`): an index of that name and this definition is renamed (ALTER INDEX … RENAME), not built again",
    ),
});

export const keyColumns = z.array(ident).min(1);
const keyObject = (what: string, dflt: string) =>
  z.strictObject({
    name: ident.optional().describe(`constraint name (default: PostgreSQL's \`${dflt}\`)`),
    columns: keyColumns.describe(`${what} columns`),
    include: keyColumns
      .optional()
      .describe("INCLUDE: columns the key's index stores beside its own (index-only scans), not part of the key"),
    deferrable,
    initially_deferred: initiallyDeferred,
  });
export const namedKey = (what: string, dflt: string) =>
  keyObject(what, dflt).describe(`a ${what} with its constraint name`);
export const namedUniqueKey = (what: string, dflt: string) =>
  keyObject(what, dflt)
    .extend({
      nulls_not_distinct: z
        .boolean()
        .optional()
        .describe('NULLS NOT DISTINCT: rows whose key columns are all NULL count as equal (one such row only)'),
    })
    .describe(`a ${what} with its constraint name`);
/** A key: its columns, or `{ name, columns }`. */
export type KeySpec =
  | readonly string[]
  | {
      readonly name?: string | undefined;
      readonly columns: readonly string[];
      readonly include?: readonly string[] | undefined;
      readonly deferrable?: boolean | undefined;
      readonly initially_deferred?: boolean | undefined;
      readonly nulls_not_distinct?: boolean | undefined;
    };
/** The columns of a key as the manifest declares it (`[a, b]` or `{ name, columns: [a, b] }`). */
export const keyColumnsOf = (k: KeySpec): readonly string[] => ('columns' in k ? k.columns : k);
/** A key as the model holds it: the name only when declared; INITIALLY DEFERRED implies DEFERRABLE. */
export const modelKey = (k: KeySpec): Key =>
  'columns' in k
    ? {
        ...(k.name ? { name: k.name } : {}),
        columns: k.columns,
        ...(k.include?.length ? { include: k.include } : {}),
        ...modelDeferral(k),
        ...(k.nulls_not_distinct ? { nullsNotDistinct: true } : {}),
      }
    : { columns: k };
/** `deferrable` / `initially_deferred` as the model holds them (INITIALLY DEFERRED implies DEFERRABLE). */
export const modelDeferral = (k: {
  readonly deferrable?: boolean | undefined;
  readonly initially_deferred?: boolean | undefined;
}): Deferral => ({
  ...(k.deferrable || k.initially_deferred ? { deferrable: true } : {}),
  ...(k.initially_deferred ? { initiallyDeferred: true } : {}),
});
/** The path of a key's column list (`…primary_key` or `…primary_key.columns`). */
export const keyColumnsPath = <P extends readonly (string | number)[]>(k: KeySpec, path: P) =>
  'columns' in k ? [...path, 'columns'] : [...path];
