// Distribution: reference / single-shard / local tables, then each colocation group. Groups are
// compared by membership in the actual cluster, never by colocation id (ids of rolled-back
// transactions are not reused). Each group: choose the table the others colocate with (the
// target), then the steps for the other members. Functions here return what they decide; only
// distributionSteps accumulates.
import type { ClusterModel, ColocationGroup, Distribution, Table } from '../../model/types.js';
import type { Step } from '../steps/steps.js';
import type { DiffProblem } from '../problem.js';

type Hash = Extract<Distribution, { kind: 'hash' }>;

/** What every decision reads: both models, which tables exist by then, and who already left its group. */
interface Ctx {
  readonly desired: ClusterModel;
  readonly actual: ClusterModel;
  readonly present: (id: string) => boolean;
  /** Tables this plan already takes out of their actual group (they no longer make it "shared"). */
  readonly movedOut: ReadonlySet<string>;
}

/** A decision: its steps, and the tables it takes out of their actual colocation group. */
interface Decided {
  readonly steps: Step[];
  readonly moved: readonly string[];
}

const have = (c: Ctx, id: string): Distribution => {
  const d = c.actual.tables[id]?.distribution ?? { kind: 'local' };
  // A distributed schema's tables are local once this plan undistributes the schema.
  return d.kind === 'schema' && !(c.desired.distributedSchemas ?? []).includes(c.actual.tables[id]!.qname.schema)
    ? { kind: 'local' }
    : d;
};
const hashOf = (c: Ctx, id: string): Hash | undefined => {
  const d = have(c, id);
  return d.kind === 'hash' ? d : undefined;
};
const want = (c: Ctx, id: string): Hash => c.desired.tables[id]!.distribution as Hash;
/** Rows a table holds are copied when it becomes distributed or reference: only tables that existed hold any. */
const copiesData = (c: Ctx, t: Table): boolean => c.actual.tables[t.id] !== undefined;
const undistribute = (c: Ctx, t: Table): Step[] =>
  have(c, t.id).kind !== 'local' ? [{ kind: 'undistribute_table', table: t.qname }] : [];

/** Reference, single-shard and citus-local tables (a distributed schema's tables go with their schema). */
function otherKindSteps(c: Ctx): Step[] {
  return Object.values(c.desired.tables).flatMap((t): Step[] => {
    const d = t.distribution;
    const h = have(c, t.id);
    if (!c.present(t.id) || d.kind === 'hash' || d.kind === 'local' || d.kind === 'schema') return [];
    if (d.kind === 'citus_local') {
      // Citus's own conversion (for a foreign key with a reference table) is made permanent by calling it again.
      if (h.kind === 'citus_local' && !h.auto) return [];
      return [
        ...(h.kind === 'citus_local' ? [] : undistribute(c, t)),
        { kind: 'add_local_table_to_metadata', table: t.qname, cascade: d.cascade ?? false },
      ];
    }
    if (h.kind === d.kind) return [];
    const kind = d.kind === 'reference' ? 'create_reference_table' : 'create_single_shard_table';
    return [...undistribute(c, t), { kind, table: t.qname, copiesData: copiesData(c, t) }];
  });
}

/**
 * The table the group's members colocate with, and the actual group it leaves them in. A
 * member's actual group is clean for g when every declared table in it belongs to g; a group
 * shared with another declared group must not be resized by cascading (that would rewrite the
 * other group's tables too): the target leaves it for a fresh group instead.
 */
function chooseTarget(
  c: Ctx,
  g: ColocationGroup,
  members: readonly string[],
): Decided & { target: string; targetGroup?: string } {
  const declaredGroup = (id: string): string | undefined => {
    const d = c.desired.tables[id]?.distribution;
    return d?.kind === 'hash' ? d.group : d ? `(${d.kind})` : undefined;
  };
  const clean = (id: string): boolean => {
    const grp = c.actual.groups[hashOf(c, id)!.group];
    return (
      !grp ||
      grp.members.every((m) => {
        const dg = declaredGroup(m);
        return c.movedOut.has(m) || dg === undefined || dg === g.name;
      })
    );
  };
  const candidates = [g.anchor, ...members].filter(
    (id) => members.includes(id) && hashOf(c, id)?.column === want(c, id).column,
  );
  const keep = candidates.find(clean);
  if (keep !== undefined) {
    const targetGroup = hashOf(c, keep)!.group;
    const actualGroup = c.actual.groups[targetGroup];
    const resize = actualGroup && actualGroup.shardCount !== g.shardCount;
    return {
      target: keep,
      targetGroup,
      moved: [],
      steps: resize
        ? [
            {
              kind: 'alter_distributed_table',
              table: c.desired.tables[keep]!.qname,
              shardCount: g.shardCount,
              cascade: actualGroup.members.length > 1,
              group: g.name,
            },
          ]
        : [],
    };
  }
  if (candidates.length > 0) {
    const target = candidates[0]!;
    return {
      target,
      moved: [target],
      steps: [
        {
          kind: 'alter_distributed_table',
          table: c.desired.tables[target]!.qname,
          shardCount: g.shardCount,
          colocateWith: 'none',
          cascade: false,
          group: g.name,
        },
      ],
    };
  }
  const anchor = c.desired.tables[members.includes(g.anchor) ? g.anchor : members[0]!]!;
  const column = want(c, anchor.id).column;
  if (hashOf(c, anchor.id)) {
    return {
      target: anchor.id,
      moved: [anchor.id],
      steps: [
        {
          kind: 'alter_distributed_table',
          table: anchor.qname,
          column,
          shardCount: g.shardCount,
          colocateWith: 'none',
          cascade: false,
          group: g.name,
        },
      ],
    };
  }
  return {
    target: anchor.id,
    moved: [],
    steps: [
      ...undistribute(c, anchor),
      {
        kind: 'distribute_table',
        table: anchor.qname,
        column,
        group: g.name,
        colocateWith: 'none',
        shardCount: g.shardCount,
        copiesData: copiesData(c, anchor),
      },
    ],
  };
}

/** The steps that bring each other member next to the target. */
function memberSteps(
  c: Ctx,
  g: ColocationGroup,
  members: readonly string[],
  target: string,
  targetGroup: string | undefined,
): Decided {
  const targetTable = c.desired.tables[target]!;
  const steps: Step[] = [];
  const moved: string[] = [];
  for (const id of members) {
    if (id === target) continue;
    const t = c.desired.tables[id]!;
    const cur = hashOf(c, id);
    if (!cur) {
      steps.push(...undistribute(c, t), {
        kind: 'distribute_table',
        table: t.qname,
        column: want(c, id).column,
        group: g.name,
        colocateWith: targetTable.qname,
        copiesData: copiesData(c, t),
      });
    } else if (cur.column !== want(c, id).column) {
      moved.push(id);
      steps.push({
        kind: 'alter_distributed_table',
        table: t.qname,
        column: want(c, id).column,
        colocateWith: targetTable.qname,
        cascade: false,
        group: g.name,
      });
    } else if (targetGroup === undefined || cur.group !== targetGroup) {
      moved.push(id);
      const sameShards = c.actual.groups[cur.group]?.shardCount === g.shardCount;
      steps.push(
        sameShards && targetGroup !== undefined
          ? { kind: 'update_colocation', table: t.qname, colocateWith: targetTable.qname, group: g.name }
          : {
              kind: 'alter_distributed_table',
              table: t.qname,
              colocateWith: targetTable.qname,
              cascade: false,
              group: g.name,
            },
      );
    }
  }
  return { steps, moved };
}

/** Steps that give existing or just-created tables their declared distribution. */
export function distributionSteps(
  desired: ClusterModel,
  actual: ClusterModel,
  present: (id: string) => boolean,
  problems: DiffProblem[] = [],
): Step[] {
  const movedOut = new Set<string>();
  const c: Ctx = { desired, actual, present, movedOut };
  const steps: Step[] = otherKindSteps(c);
  for (const g of Object.values(desired.groups)) {
    const members = g.members.filter(present);
    if (members.length === 0) continue;
    const chosen = chooseTarget(c, g, members);
    chosen.moved.forEach((id) => movedOut.add(id));
    const rest = memberSteps(c, g, members, chosen.target, chosen.targetGroup);
    rest.moved.forEach((id) => movedOut.add(id));
    steps.push(...chosen.steps, ...rest.steps);
  }
  for (const t of Object.values(desired.tables)) {
    const h = have(c, t.id);
    // A table Citus converted for a foreign key with a reference table is still "local" to the user.
    if (!present(t.id) || t.distribution.kind !== 'local' || (h.kind === 'citus_local' && h.auto)) continue;
    // undistribute_table needs cascade_via_foreign_keys then, and the cascade also undistributes
    // the reference tables the keys reach: never planned.
    const linked = (id: string): boolean =>
      (actual.tables[id]?.foreignKeys.length ?? 0) > 0 ||
      Object.values(actual.tables).some((o) => o.foreignKeys.some((fk) => fk.refTable === id));
    if (h.kind === 'citus_local' && linked(t.id))
      problems.push({
        code: 'citus_local_with_foreign_keys',
        object: t.id,
        message:
          'is a citus-local table with foreign keys: undistribute_table would need cascade_via_foreign_keys, which also undistributes the tables the keys reach; declare it citus_local, or drop the keys first',
      });
    else steps.push(...undistribute(c, t));
  }
  // Copied rows stay on the coordinator's disk until truncated ("Copying data from local table...").
  for (const s of [...steps]) {
    if ('copiesData' in s && s.copiesData && 'table' in s) steps.push({ kind: 'truncate_local_data', table: s.table });
  }
  return steps;
}
