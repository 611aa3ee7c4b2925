// A colocation group's `isolated` tenants: each a value of the group's integer distribution column,
// with the hash Citus puts it at (model/citus-hash.ts), so that a plan can tell, offline too,
// whether the cluster has it on a shard of its own.
import type { ColocationGroup } from '../model/types.js';
import { HASHED_TYPES, workerHash } from '../model/citus-hash.js';
import type { Manifest } from './schema.js';
import type { ProblemList } from './problems.js';

/** The groups with their isolated tenants (and problems for a value or a type it cannot take). */
export function withIsolatedTenants(
  m: Manifest,
  groups: Record<string, ColocationGroup>,
  columnType: ReadonlyMap<string, { type: string }>,
  problems: ProblemList,
): void {
  for (const [name, g] of Object.entries(m.colocation)) {
    if (!g.isolated || !groups[name]) continue;
    const path = ['colocation', name, 'isolated'];
    const type = columnType.get(name)?.type;
    if (type === undefined || !HASHED_TYPES.has(type)) {
      problems.error(
        path,
        'isolation_type',
        `isolated tenants need a smallint, integer or bigint distribution column${type ? `, not ${type}` : ''} (isolate others with isolate_tenant_to_new_shard by hand; the plan names their shards)`,
      );
      continue;
    }
    const seen = new Set<number>();
    const isolated = g.isolated.flatMap((v, i) => {
      const value = String(v);
      const hash = workerHash(value, type);
      if (hash === undefined) {
        problems.error([...path, i], 'isolation_value', `${value} is not a value of the ${type} distribution column`);
        return [];
      }
      if (seen.has(hash)) {
        problems.error([...path, i], 'isolation_duplicate', `${value} is listed twice`);
        return [];
      }
      seen.add(hash);
      return [{ value, hash }];
    });
    groups[name] = { ...groups[name], isolated };
  }
}
