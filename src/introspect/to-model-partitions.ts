// A table's own storage parameters and its partitions, as the model holds them (to-model.ts).
import { parseReloptions } from '../model/storage-parameters.js';
import type { CatalogDoc } from '../model/catalog-doc.js';
import type { ForeignPartition, Partition, Table } from '../model/types.js';
import { canonicalBound, canonicalPartitionKey } from '../sql/partition-bound.js';
import { dictOf } from '../util/dict.js';

/** A table's storage parameters and whether it has a TOAST table (when the catalog read them). */
export function storageParametersOf(t: CatalogDoc['tables'][number]): Pick<Table, 'storageParameters' | 'toast'> {
  const params = { ...parseReloptions(t.options), ...parseReloptions(t.toastOptions, 'toast.') };
  return {
    ...(Object.keys(params).length > 0 ? { storageParameters: params } : {}),
    ...(t.toast !== undefined ? { toast: t.toast } : {}),
  };
}

/** A partition of the catalog's as the model's (the catalog lists them by level: each after the one it is of). */
export function partitionOf(
  schema: string,
  p: NonNullable<CatalogDoc['tables'][number]['partitions']>[number],
): Partition {
  const params = { ...parseReloptions(p.options), ...parseReloptions(p.toastOptions, 'toast.') };
  return {
    name: p.name,
    ...(p.schema !== undefined && p.schema !== schema ? { schema: p.schema } : {}),
    ...(p.of ? { of: { schema: p.of.schema, name: p.of.name } } : {}),
    bound: canonicalBound(p.bound),
    ...(p.partitionBy ? { partitionBy: canonicalPartitionKey(p.partitionBy) } : {}),
    ...(p.partitionBy && p.partitionKeyTypes ? { partitionKeyTypes: p.partitionKeyTypes } : {}),
    // (another access method than heap and columnar is named as not managed: 'table access method')
    ...(p.am !== null && p.am !== undefined && p.am !== 'heap' ? { accessMethod: p.am } : {}),
    ...(p.foreign ? { foreign: foreignOf(p.foreign) } : {}),
    ...(p.am === 'columnar' && p.columnarOptions ? { columnarOptions: p.columnarOptions } : {}),
    ...(Object.keys(params).length > 0 ? { storageParameters: params } : {}),
    ...(p.indexes?.length
      ? { indexNames: dictOf(p.indexes.map((i) => [i.parent, i.name] as const)), indexes: p.indexes }
      : {}),
  };
}

/** A foreign partition's server and options. */
function foreignOf(f: { server: string; options: string[] | null }): ForeignPartition {
  const options = parseReloptions(f.options);
  return { server: f.server, ...(Object.keys(options).length > 0 ? { options } : {}) };
}
