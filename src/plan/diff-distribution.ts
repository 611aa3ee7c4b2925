// Distribution: reference / single-shard / local tables, then each colocation group. Groups are
// compared by membership in the actual cluster, never by colocation id (ids of rolled-back
// transactions are not reused).
import type { ClusterModel, Distribution, Table } from '../model/types.js';
import type { Step } from './steps.js';

type Hash = Extract<Distribution, { kind: 'hash' }>;

/** Steps that give existing or just-created tables their declared distribution. */
export function distributionSteps(desired: ClusterModel, actual: ClusterModel, present: (id: string) => boolean): Step[] {
  const steps: Step[] = [];
  const existed = (id: string): boolean => actual.tables[id] !== undefined;
  const have = (id: string): Distribution => actual.tables[id]?.distribution ?? { kind: 'local' };
  const truncate: Table[] = [];
  // Tables this plan already takes out of their actual colocation group (so they no longer make
  // that group "shared" for the groups processed after them).
  const movedOut = new Set<string>();
  const copy = (t: Table): boolean => {
    if (existed(t.id)) truncate.push(t);
    return existed(t.id);
  };
  const undistributeIfNeeded = (t: Table): void => {
    if (have(t.id).kind !== 'local') steps.push({ kind: 'undistribute_table', table: t.qname });
  };

  for (const t of Object.values(desired.tables)) {
    if (!present(t.id) || t.distribution.kind === 'hash' || t.distribution.kind === 'local') continue;
    const cur = have(t.id);
    if (cur.kind === t.distribution.kind) continue;
    undistributeIfNeeded(t);
    if (t.distribution.kind === 'reference') steps.push({ kind: 'create_reference_table', table: t.qname, copiesData: copy(t) });
    else if (t.distribution.kind === 'single_shard') steps.push({ kind: 'create_single_shard_table', table: t.qname, copiesData: copy(t) });
  }

  for (const g of Object.values(desired.groups)) {
    const members = g.members.filter(present);
    if (members.length === 0) continue;
    const want = (id: string): Hash => desired.tables[id]!.distribution as Hash;
    const hashOf = (id: string): Hash | undefined => { const d = have(id); return d.kind === 'hash' ? d : undefined; };
    const onRightColumn = (id: string): boolean => hashOf(id)?.column === want(id).column;
    // A member's actual group is clean for g when every declared table in it belongs to g; a
    // group shared with another declared group must not be resized by cascading (that would
    // rewrite the other group's tables too): the target leaves it for a fresh group instead.
    const declaredGroup = (id: string): string | undefined => { const d = desired.tables[id]?.distribution; return d?.kind === 'hash' ? d.group : d ? `(${d.kind})` : undefined; };
    const clean = (id: string): boolean => {
      const grp = actual.groups[hashOf(id)!.group];
      return !grp || grp.members.every((m) => { const dg = declaredGroup(m); return movedOut.has(m) || dg === undefined || dg === g.name; });
    };
    const candidates = [g.anchor, ...members].filter((id) => members.includes(id) && onRightColumn(id));
    let target = candidates.find(clean);
    let targetGroup: string | undefined;
    if (target !== undefined) {
      targetGroup = hashOf(target)!.group;
      const actualGroup = actual.groups[targetGroup];
      if (actualGroup && actualGroup.shardCount !== g.shardCount) {
        steps.push({ kind: 'alter_distributed_table', table: desired.tables[target]!.qname, shardCount: g.shardCount, cascade: actualGroup.members.length > 1, group: g.name });
      }
    } else if (candidates.length > 0) {
      target = candidates[0]!;
      movedOut.add(target);
      steps.push({ kind: 'alter_distributed_table', table: desired.tables[target]!.qname, shardCount: g.shardCount, colocateWith: 'none', cascade: false, group: g.name });
    } else {
      const anchor = desired.tables[members.includes(g.anchor) ? g.anchor : members[0]!]!;
      if (hashOf(anchor.id)) {
        movedOut.add(anchor.id);
        steps.push({ kind: 'alter_distributed_table', table: anchor.qname, column: want(anchor.id).column, shardCount: g.shardCount, colocateWith: 'none', cascade: false, group: g.name });
      } else {
        undistributeIfNeeded(anchor);
        steps.push({ kind: 'distribute_table', table: anchor.qname, column: want(anchor.id).column, group: g.name, colocateWith: 'none', shardCount: g.shardCount, copiesData: copy(anchor) });
      }
      target = anchor.id;
    }
    const targetTable = desired.tables[target]!;
    for (const id of members) {
      if (id === target) continue;
      const t = desired.tables[id]!;
      const cur = hashOf(id);
      if (!cur) {
        undistributeIfNeeded(t);
        steps.push({ kind: 'distribute_table', table: t.qname, column: want(id).column, group: g.name, colocateWith: targetTable.qname, copiesData: copy(t) });
      } else if (cur.column !== want(id).column) {
        movedOut.add(id);
        steps.push({ kind: 'alter_distributed_table', table: t.qname, column: want(id).column, colocateWith: targetTable.qname, cascade: false, group: g.name });
      } else if (targetGroup === undefined || cur.group !== targetGroup) {
        movedOut.add(id);
        const sameShards = actual.groups[cur.group]?.shardCount === g.shardCount;
        steps.push(sameShards && targetGroup !== undefined
          ? { kind: 'update_colocation', table: t.qname, colocateWith: targetTable.qname, group: g.name }
          : { kind: 'alter_distributed_table', table: t.qname, colocateWith: targetTable.qname, cascade: false, group: g.name });
      }
    }
  }

  for (const t of Object.values(desired.tables)) {
    if (!present(t.id) || t.distribution.kind !== 'local') continue;
    if (have(t.id).kind !== 'local') steps.push({ kind: 'undistribute_table', table: t.qname });
  }
  // Copied rows stay on the coordinator's disk until truncated ("Copying data from local table...").
  for (const t of truncate) steps.push({ kind: 'truncate_local_data', table: t.qname });
  return steps;
}
