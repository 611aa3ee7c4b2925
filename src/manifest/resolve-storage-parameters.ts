// A table's `storage_parameters`: values as PostgreSQL's text (booleans true/false, numbers as
// written). A partitioned table holds no rows and takes none (PostgreSQL: "unrecognized
// parameter"); a columnar table's options are its columnar_options.
import type { Table } from '../model/types.js';
import type { Path } from './locate.js';
import type { ProblemList } from './problems.js';
import type { Manifest } from './schema.js';

type ManifestTable = Manifest['tables'][string];

export function storageParameters(
  t: ManifestTable,
  path: Path,
  problems: ProblemList,
): Pick<Table, 'storageParameters'> {
  const given = t.storage_parameters;
  if (given === undefined) return {};
  const at = [...path, 'storage_parameters'];
  if (t.partition_by !== undefined) {
    problems.error(
      at,
      'storage_parameters_partitioned',
      'a partitioned table holds no rows and takes no storage parameters: set them on its partitions',
    );
    return {};
  }
  if (t.access_method === 'columnar') {
    problems.error(at, 'storage_parameters_columnar', "a columnar table's options are its columnar_options");
    return {};
  }
  const params: Record<string, string> = {};
  for (const [k, v] of Object.entries(given)) params[k] = String(v);
  return Object.keys(params).length > 0 ? { storageParameters: params } : {};
}
