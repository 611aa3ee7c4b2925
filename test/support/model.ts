// Plain models for unit tests of the diff: a local table of bigint columns in public, with the
// keys and foreign keys a test gives it, and a cluster model holding such tables.
import type { ClusterModel, ForeignKey, Key, Table } from '../../src/model/types.js';

export interface TableSpec {
  /** Its columns, all bigint; null: declared without columns (its structure managed elsewhere). */
  readonly columns?: readonly string[] | null;
  /** Which columns are NOT NULL (default: none). */
  readonly notNull?: (column: string) => boolean;
  readonly pk?: Key;
  readonly unique?: readonly Key[];
  readonly fks?: readonly ForeignKey[];
}

/** Local table `public.<name>`. */
export function localTable(name: string, spec: TableSpec = {}): Table {
  const columns = spec.columns === undefined ? ['id', 'a', 'b'] : spec.columns;
  return {
    id: `public.${name}`,
    qname: { schema: 'public', name },
    ...(columns === null
      ? {}
      : {
          columns: columns.map((c) => ({
            name: c,
            type: { base: 'bigint', sql: 'bigint', serial: false },
            notNull: spec.notNull?.(c) ?? false,
          })),
        }),
    ...(spec.pk ? { primaryKey: spec.pk } : {}),
    unique: spec.unique ?? [],
    indexes: [],
    foreignKeys: spec.fks ?? [],
    distribution: { kind: 'local' },
  };
}

/** A cluster model of schema public holding `tables`, and nothing else. */
export const modelOf = (...tables: Table[]): ClusterModel => ({
  schemas: ['public'],
  tables: Object.fromEntries(tables.map((t) => [t.id, t])),
  groups: {},
  sequences: {},
  routines: {},
  objects: {},
});
