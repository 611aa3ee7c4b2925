// Objects of kinds citus-migrate does not model (what the catalog query's not-managed part names):
// the kinds in the order a plan lists them, an entry's shape, and their lines as every format and
// introspect's header print them. Plain data, below introspection, the planner and the formats.

/** Kinds this query reports, in the order a plan lists them. */
export const NOT_MANAGED_KINDS = [
  'foreign table',
  'partition',
  'table inheritance',
  'owner privileges',
  'table storage options',
  'foreign key to a partition',
  'tablespace',
  'aggregate',
  'collation',
  'operator',
  'operator class',
  'operator family',
  'user mapping',
  'extension member',
  'statistics object',
  'publication',
  'range-distributed table',
  'append-distributed table',
  'shard replication',
  'shard layout',
  'shard isolation',
  'distributed sequence',
  'subscription',
] as const;
export type NotManagedKind = (typeof NOT_MANAGED_KINDS)[number];

/** One object of a kind the model does not hold, as the catalog names it. */
export interface NotManaged {
  readonly kind: string;
  readonly name: string;
}

/** Tables the cluster holds in a layout the model does not (range or append distribution). */
export const NOT_MANAGED_TABLE_KINDS: ReadonlySet<string> = new Set([
  'range-distributed table',
  'append-distributed table',
]);

const order = (kind: string): number => {
  const i = (NOT_MANAGED_KINDS as readonly string[]).indexOf(kind);
  return i < 0 ? NOT_MANAGED_KINDS.length : i;
};

/** The objects grouped by kind, in the catalog's order of kinds. */
export function groupNotManaged(items: readonly NotManaged[]): { kind: string; names: string[] }[] {
  const by = new Map<string, string[]>();
  for (const x of items) by.set(x.kind, [...(by.get(x.kind) ?? []), x.name]);
  return [...by.entries()].sort((a, b) => order(a[0]) - order(b[0])).map(([kind, names]) => ({ kind, names }));
}

/** One line per kind: "trigger (2): public.t.a, public.t.b", at most `max` names each. */
export function notManagedLines(items: readonly NotManaged[], max = 5): string[] {
  return groupNotManaged(items).map(
    ({ kind, names }) =>
      `${kind} (${names.length}): ${names.slice(0, max).join(', ')}${names.length > max ? `, … and ${names.length - max} more` : ''}`,
  );
}
