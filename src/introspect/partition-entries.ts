// A table's partitions and storage parameters as the manifest writes them (to-manifest.ts): each
// partition under the one it is a partition of, with its bound, its own options and partitions.
import { isChosenIndexName } from '../model/key-names.js';
import { parameterValue } from '../model/storage-parameters.js';
import {
  idOf,
  partitionQname,
  type ColumnarOptions,
  type ForeignPartition,
  type Partition,
  type Table,
} from '../model/types.js';
import { COLUMNAR_OPTION_KEY } from '../manifest/columnar-options.js';
import { parseBound } from '../sql/partition-bound.js';
import { formatQualifiedKey } from '../sql/quote.js';
import { dictOf } from '../util/dict.js';

const one = (v: readonly string[]): string | readonly string[] => (v.length === 1 ? v[0]! : v);

/** The `partitions:` of the table (`of` undefined) or of one of its partitions, each with its own. */
export function partitionEntries(
  t: Table,
  of: Partition | undefined,
  defaults: ColumnarOptions | undefined,
): Record<string, unknown> {
  const parent = of ? idOf(partitionQname(t, of)) : undefined;
  return dictOf(
    (t.partitions ?? [])
      .filter((p) => (p.of ? idOf(p.of) : undefined) === parent)
      .map((p) => [formatQualifiedKey(partitionQname(t, p), t.qname.schema), partitionEntry(t, p, defaults)] as const),
  );
}

/** A partition as the manifest declares it: `{from, to}`, `{in}`, `{modulus, remainder}` or `{default: true}`, with its options. */
function partitionEntry(t: Table, p: Partition, defaults: ColumnarOptions | undefined): Record<string, unknown> {
  const b = parseBound(p.bound);
  // Only the names PostgreSQL would not choose: the others come back as they are.
  const named = (p.indexes ?? []).filter((i) => !isChosenIndexName(i.name, p.name, i.label, i.columns));
  const am = {
    ...(p.accessMethod ? { access_method: p.accessMethod } : {}),
    ...(p.foreign ? { foreign: foreignEntry(p.foreign) } : {}),
    ...(columnarOptionsEntry(p.columnarOptions, defaults)
      ? { columnar_options: columnarOptionsEntry(p.columnarOptions, defaults) }
      : {}),
    ...(p.storageParameters ? { storage_parameters: storageParametersEntry(p.storageParameters) } : {}),
    ...(named.length > 0 ? { index_names: dictOf(named.map((i) => [i.parent, i.name] as const)) } : {}),
    ...(p.partitionBy ? { partition_by: p.partitionBy, partitions: partitionEntries(t, p, defaults) } : {}),
  };
  if (!b) throw new Error(`cannot write the bound of partition ${p.name}: ${p.bound}`);
  if (b.kind === 'range') return { from: one(b.from), to: one(b.to), ...am };
  if (b.kind === 'list') return { in: b.in, ...am };
  if (b.kind === 'hash') return { modulus: b.modulus, remainder: b.remainder, ...am };
  return { default: true, ...am };
}

/**
 * Storage parameters as YAML values: numbers and booleans as such where YAML spells them as
 * PostgreSQL keeps them, else the text as kept (`off`, `.05`): made from the manifest again, the
 * copy keeps the same text, which pg_dump prints.
 */
export function storageParametersEntry(params: Readonly<Record<string, string>>): Record<string, unknown> {
  return dictOf(
    Object.entries(params)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, v]) => {
        const value = parameterValue(v);
        return [k, typeof value !== 'string' && String(value) !== v ? v : value] as const;
      }),
  );
}

/** The columnar options that are not the server's defaults, as manifest keys. */
export function columnarOptionsEntry(
  o: ColumnarOptions | undefined,
  defaults: ColumnarOptions | undefined,
): Record<string, unknown> | undefined {
  if (!o) return undefined;
  const out = Object.fromEntries(
    (Object.keys(COLUMNAR_OPTION_KEY) as (keyof ColumnarOptions)[]).flatMap((k) =>
      o[k] !== undefined && o[k] !== defaults?.[k] ? [[COLUMNAR_OPTION_KEY[k], o[k]]] : [],
    ),
  );
  return Object.keys(out).length > 0 ? out : undefined;
}

/** A foreign partition as the manifest declares it: its server and options. */
function foreignEntry(f: ForeignPartition): Record<string, unknown> {
  return { server: f.server, ...(f.options ? { options: dictOf(Object.entries(f.options)) } : {}) };
}
