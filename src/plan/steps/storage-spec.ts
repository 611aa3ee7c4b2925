// Step records of how a table is stored: its access method (heap, columnar) and columnar options.
import { catalogCall, quoteIdent, quoteLiteral, regclassLiteral, sqlInt, typedLiteral } from '../../sql/quote.js';
import type { ColumnarOptions } from '../../model/types.js';
import { CITUS, PLAIN, type StepSpecs } from './spec-record.js';
import { q } from './sql-parts.js';
import { tableRef } from '../../model/object-ref.js';

type StorageKind =
  'create_columnar_extension' | 'set_access_method' | 'alter_table_access_method' | 'set_columnar_options';

/** The storage parameter of each columnar option. */
export const COLUMNAR_OPTION: { readonly [K in keyof Required<ColumnarOptions>]: string } = {
  compression: 'columnar.compression',
  compressionLevel: 'columnar.compression_level',
  stripeRowLimit: 'columnar.stripe_row_limit',
  chunkGroupRowLimit: 'columnar.chunk_group_row_limit',
};

const columnarOptionList = (o: ColumnarOptions): string[] =>
  (Object.keys(COLUMNAR_OPTION) as (keyof ColumnarOptions)[]).flatMap((k) => {
    const v = o[k];
    if (v === undefined) return [];
    return [`${COLUMNAR_OPTION[k]} = ${typeof v === 'number' ? sqlInt(v) : quoteLiteral(v)}`];
  });

export const STORAGE_SPECS: StepSpecs<StorageKind> = {
  create_columnar_extension: {
    ...CITUS,
    phase: () => 'types',
    hazards: () => [],
    object: () => 'extension citus_columnar',
    // Citus 13.2 no longer creates it with the citus extension; created on the coordinator, Citus propagates it.
    sql: () => ['CREATE EXTENSION IF NOT EXISTS citus_columnar'],
    summary: () => 'create extension citus_columnar (the columnar access method)',
  },
  set_access_method: {
    ...CITUS,
    phase: () => 'tables',
    hazards: () => ['rewrites_table'],
    object: (s) => tableRef(s.table),
    // Citus's function rewrites a distributed table shard by shard; a local one is rewritten in place.
    sql: (s) => [
      catalogCall('alter_table_set_access_method', [regclassLiteral(s.table), typedLiteral(s.accessMethod, 'text')]),
    ],
    summary: (s) =>
      `rewrite ${s.parent ? `partition ${q(s.table)} of ${q(s.parent)}` : q(s.table)} from ${s.from} to ${s.accessMethod}`,
  },
  // PostgreSQL 15's own: rewrites the table (ACCESS EXCLUSIVE) into the other method.
  alter_table_access_method: {
    ...PLAIN,
    phase: () => 'tables',
    hazards: () => ['rewrites_table'],
    object: (s) => tableRef(s.table),
    sql: (s) => [`ALTER TABLE ${q(s.table)} SET ACCESS METHOD ${quoteIdent(s.accessMethod)}`],
    summary: (s) =>
      `rewrite ${s.parent ? `partition ${q(s.table)} of ${q(s.parent)}` : q(s.table)} from ${s.from} to ${s.accessMethod}`,
  },
  set_columnar_options: {
    ...PLAIN,
    phase: () => 'tables',
    // Applies to stripes written from now on: nothing is rewritten.
    hazards: () => [],
    object: (s) => tableRef(s.table),
    // Citus applies them to every shard, in a transaction too.
    sql: (s) => [
      ...(Object.keys(s.set).length > 0
        ? [`ALTER TABLE ${q(s.table)} SET (${columnarOptionList(s.set).join(', ')})`]
        : []),
      ...(s.reset.length > 0
        ? [`ALTER TABLE ${q(s.table)} RESET (${s.reset.map((k) => COLUMNAR_OPTION[k]).join(', ')})`]
        : []),
    ],
    summary: (s) =>
      `set columnar options of ${q(s.table)}: ${[...columnarOptionList(s.set), ...s.reset.map((k) => `${COLUMNAR_OPTION[k]} to its default`)].join(', ')}`,
  },
};
