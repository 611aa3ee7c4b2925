// HammerDB TPROC-C on Citus: the layout HammerDB's Citus-compatible build uses, as a manifest.
// Tables: distributed by warehouse id and colocated with warehouse; item is a reference table.
// Routines: dbms_random on every node; neword, payment, delivery, ostat and slev delegated by
// their first argument (the warehouse id). Signatures follow HammerDB's PostgreSQL build.

export type HammerdbVariant = 'procedures' | 'functions';

/** Distributed tables and their distribution columns, in HammerDB's order. */
export const HAMMERDB_TABLES: readonly (readonly [string, string])[] = [
  ['warehouse', 'w_id'], ['customer', 'c_w_id'], ['district', 'd_w_id'], ['history', 'h_w_id'],
  ['stock', 's_w_id'], ['new_order', 'no_w_id'], ['orders', 'o_w_id'], ['order_line', 'ol_w_id'],
];

const V20 = 'varchar';
const C = 'char';
/** Routine signatures (identity argument types) per variant. */
export const HAMMERDB_SIGNATURES: Readonly<Record<HammerdbVariant, Readonly<Record<string, readonly string[]>>>> = {
  procedures: {
    neword: ['integer', 'integer', 'integer', 'integer', 'integer', 'numeric', 'varchar', 'varchar', 'numeric', 'numeric', 'integer', 'timestamp'],
    payment: ['integer', 'integer', 'integer', 'integer', 'integer', 'numeric', C, 'varchar', 'integer',
      V20, V20, V20, C, C, V20, V20, V20, C, C, 'varchar', C, V20, V20, V20, C, C, C, 'timestamp', 'numeric', 'numeric', 'numeric', 'varchar', 'timestamp'],
    delivery: ['integer', 'integer', 'timestamp'],
    ostat: ['integer', 'integer', 'integer', 'integer', 'varchar', 'varchar', 'varchar', 'numeric', 'integer', 'timestamp', 'integer', 'text'],
    slev: ['integer', 'integer', 'integer', 'integer'],
  },
  functions: {
    neword: ['integer', 'integer', 'integer', 'integer', 'integer', 'integer'],
    payment: ['integer', 'integer', 'integer', 'integer', 'integer', 'integer', 'numeric', 'varchar', 'varchar', 'numeric'],
    delivery: ['integer', 'integer'],
    ostat: ['integer', 'integer', 'integer', 'integer', 'varchar'],
    slev: ['integer', 'integer', 'integer'],
  },
};

/** Writes the HammerDB layout as a v1 manifest (YAML text). */
export function hammerdbManifest(opts: { variant: HammerdbVariant; shardCount: number; schema?: string }): string {
  const sigs = HAMMERDB_SIGNATURES[opts.variant];
  const lines = [
    '# yaml-language-server: $schema=../../schema/manifest-v1.schema.json',
    `# HammerDB TPROC-C on Citus (${opts.variant} variant). The tables and routines are built by`,
    '# HammerDB without its Citus option; this manifest manages only their distribution.',
    'version: 1',
    'defaults:',
    `  schema: ${opts.schema ?? 'public'}`,
    `  shard_count: ${opts.shardCount}`,
    '',
    'colocation:',
    '  warehouse:',
    `    shard_count: ${opts.shardCount}`,
    '    anchor: warehouse',
    '',
    'tables:',
    ...HAMMERDB_TABLES.flatMap(([t, c]) => [`  ${t}: { distributed_by: ${c}, colocation: warehouse }`]),
    '  item: { reference: true }',
    '',
    'routines:',
    '  dbms_random:',
    '    signature: dbms_random(integer, integer)   # on every node, never delegated',
    ...Object.entries(sigs).flatMap(([name, types]) => [
      `  ${name}:`,
      `    signature: ${name}(${types.join(', ')})`,
      '    distributed_by: $1',
      '    colocation: warehouse',
      '    force_delegation: false',
    ]),
    '',
  ];
  return lines.join('\n');
}
