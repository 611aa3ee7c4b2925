// HammerDB TPROC-C on Citus: the layout HammerDB's Citus-compatible build uses, as a manifest.
// Tables: distributed by warehouse id and colocated with warehouse; item is a reference table.
// Routines: dbms_random on every node; neword, payment, delivery, ostat and slev delegated by
// their first argument (the warehouse id). Signatures follow HammerDB's PostgreSQL build.

import { Document, Scalar, type YAMLMap, type YAMLSeq } from 'yaml';

export type HammerdbVariant = 'procedures' | 'functions';

/** Distributed tables and their distribution columns, in HammerDB's order. */
export const HAMMERDB_TABLES: readonly (readonly [string, string])[] = [
  ['warehouse', 'w_id'],
  ['customer', 'c_w_id'],
  ['district', 'd_w_id'],
  ['history', 'h_w_id'],
  ['stock', 's_w_id'],
  ['new_order', 'no_w_id'],
  ['orders', 'o_w_id'],
  ['order_line', 'ol_w_id'],
];

const V20 = 'varchar';
const C = 'char';
/** Routine signatures (identity argument types) per variant. */
export const HAMMERDB_SIGNATURES: Readonly<Record<HammerdbVariant, Readonly<Record<string, readonly string[]>>>> = {
  procedures: {
    neword: [
      'integer',
      'integer',
      'integer',
      'integer',
      'integer',
      'numeric',
      'varchar',
      'varchar',
      'numeric',
      'numeric',
      'integer',
      'timestamp',
    ],
    payment: [
      'integer',
      'integer',
      'integer',
      'integer',
      'integer',
      'numeric',
      C,
      'varchar',
      'integer',
      V20,
      V20,
      V20,
      C,
      C,
      V20,
      V20,
      V20,
      C,
      C,
      'varchar',
      C,
      V20,
      V20,
      V20,
      C,
      C,
      C,
      'timestamp',
      'numeric',
      'numeric',
      'numeric',
      'varchar',
      'timestamp',
    ],
    delivery: ['integer', 'integer', 'timestamp'],
    ostat: [
      'integer',
      'integer',
      'integer',
      'integer',
      'varchar',
      'varchar',
      'varchar',
      'numeric',
      'integer',
      'timestamp',
      'integer',
      'text',
    ],
    slev: ['integer', 'integer', 'integer', 'integer'],
  },
  functions: {
    neword: ['integer', 'integer', 'integer', 'integer', 'integer', 'integer'],
    payment: [
      'integer',
      'integer',
      'integer',
      'integer',
      'integer',
      'integer',
      'numeric',
      'varchar',
      'varchar',
      'numeric',
    ],
    delivery: ['integer', 'integer'],
    ostat: ['integer', 'integer', 'integer', 'integer', 'varchar'],
    slev: ['integer', 'integer', 'integer'],
  },
};

type Param = Readonly<Record<string, unknown>>;

/** TPC-C's mix over HammerDB's routines, called the way HammerDB calls them. */
function benchWorkloads(
  variant: HammerdbVariant,
  warehouses?: number,
): Record<string, { weight: number; sql: string; params: Param[] }> {
  // Without a fixed count, the range is read from the data before each run, as HammerDB's driver
  // does (a warehouse id above max(w_id) makes neword fail on a null o_id).
  const w = warehouses ?? { max: 'warehouse.w_id' };
  const W = { int: [1, w] };
  const D = { int: [1, 10] };
  const C = { nurand: [1023, 1, 3000] };
  const calls: Record<string, [string, Param[]]> =
    variant === 'procedures'
      ? {
          new_order: [
            "CALL neword($1, $2, $3, $4, $5, 0, '', '', 0, 0, 0, localtimestamp)",
            [W, { const: w }, D, C, { int: [5, 15] }],
          ],
          payment: [
            `CALL payment($1, $2, $1, $2, 0, $3, '', '', $4, ${Array(18).fill("''").join(', ')}, localtimestamp, 0, 0, 0, '', localtimestamp)`,
            [W, D, { int: [1, 5000] }, C],
          ],
          delivery: ['CALL delivery($1, $2, localtimestamp)', [W, D]],
          order_status: ["CALL ostat($1, $2, $3, 0, '', '', '', 0, 0, localtimestamp, 0, '')", [W, D, C]],
          stock_level: ['CALL slev($1, $2, $3, 0)', [W, D, { int: [10, 20] }]],
        }
      : {
          new_order: ['SELECT neword($1, $2, $3, $4, $5, 0)', [W, { const: w }, D, C, { int: [5, 15] }]],
          payment: ["SELECT payment($1, $2, $1, $2, $3, 0, $4, '', '', 0)", [W, D, C, { int: [1, 5000] }]],
          delivery: ['SELECT delivery($1, $2)', [W, D]],
          order_status: [
            "SELECT * FROM ostat($1, $2, $3, 0, '') AS t(ol_i_id int, ol_supply_w_id int, ol_quantity smallint, ol_amount numeric, ol_delivery_d timestamptz, out_os_c_id int, out_os_c_last varchar, os_c_first varchar, os_c_middle varchar, os_c_balance numeric, os_o_id int, os_entdate timestamp, os_o_carrier_id int)",
            [W, D, C],
          ],
          stock_level: ['SELECT slev($1, $2, $3)', [W, D, { int: [10, 20] }]],
        };
  const weights: Record<string, number> = { new_order: 45, payment: 43, delivery: 4, order_status: 4, stock_level: 4 };
  return Object.fromEntries(
    Object.entries(calls).map(([name, [sql, params]]) => [name, { weight: weights[name]!, sql, params }]),
  );
}

/** Writes the HammerDB layout as a v1 manifest (YAML text, through the yaml library so any name reads back); without `warehouses` the bench reads max(w_id). */
export function hammerdbManifest(opts: {
  variant: HammerdbVariant;
  shardCount: number;
  schema?: string;
  warehouses?: number;
}): string {
  const sigs = HAMMERDB_SIGNATURES[opts.variant];
  const workloads = benchWorkloads(opts.variant, opts.warehouses);
  const doc = new Document(
    {
      version: 1,
      defaults: { schema: opts.schema ?? 'public', shard_count: opts.shardCount },
      colocation: { warehouse: { shard_count: opts.shardCount, anchor: 'warehouse' } },
      tables: {
        ...Object.fromEntries(HAMMERDB_TABLES.map(([t, c]) => [t, { distributed_by: c, colocation: 'warehouse' }])),
        item: { reference: true },
      },
      routines: {
        dbms_random: { signature: 'dbms_random(integer, integer)' },
        ...Object.fromEntries(
          Object.entries(sigs).map(([name, types]) => [
            name,
            {
              signature: `${name}(${types.join(', ')})`,
              distributed_by: '$1',
              colocation: 'warehouse',
              force_delegation: false,
            },
          ]),
        ),
      },
      bench: { clients: 8, duration: '30s', warmup: '5s', workloads },
    },
    { aliasDuplicateObjects: false },
  );
  doc.commentBefore = [
    ' yaml-language-server: $schema=../../schema/manifest-v1.schema.json',
    ` HammerDB TPROC-C on Citus (${opts.variant} variant). The tables and routines are built by`,
    ' HammerDB without its Citus option; this manifest manages only their distribution.',
  ].join('\n');
  const keyOf = (name: string): Scalar =>
    (doc.contents as YAMLMap<Scalar>).items.find((p) => p.key.value === name)!.key;
  for (const key of ['colocation', 'tables', 'routines', 'bench']) keyOf(key).spaceBefore = true;
  keyOf('bench').comment = ' TPC-C mix, HammerDB-style calls (CALL with literals is delegated)';
  for (const t of [...HAMMERDB_TABLES.map(([t]) => t), 'item']) (doc.getIn(['tables', t], true) as YAMLMap).flow = true;
  (doc.getIn(['routines', 'dbms_random', 'signature'], true) as Scalar).comment = ' on every node, never delegated';
  for (const name of Object.keys(workloads)) {
    (doc.getIn(['bench', 'workloads', name, 'params'], true) as YAMLSeq).flow = true;
    (doc.getIn(['bench', 'workloads', name, 'sql'], true) as Scalar).type = Scalar.QUOTE_DOUBLE;
  }
  return doc.toString({ lineWidth: 0 });
}
