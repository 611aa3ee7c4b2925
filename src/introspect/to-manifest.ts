// Writes a v1 manifest of what a cluster has (adopting an existing cluster): tables with their
// columns, keys, indexes and distribution; colocation groups named after their first table;
// sequences with caches; every routine by signature (distributed ones with their distribution,
// the others local), overloads keyed by signature.
import { pendingBackfills } from '../plan/backfill.js';
import { pendingRetypes } from '../plan/retype-pending.js';
import { manifestSequences } from './to-manifest-sequences.js';
import { manifestHeader } from './manifest-header.js';
import { schemasEntry } from './manifest-schemas.js';
import { Document } from 'yaml';
import { DEFAULT_SHARD_COUNT, type ColumnarOptions, type Deferral, type Key, type Table } from '../model/types.js';
import { defaultKeyName } from '../model/key-names.js';
import { columnarOptionsEntry, partitionEntries, storageParametersEntry } from './partition-entries.js';
import { formatQualifiedKey, quoteIdent, quoteQualified } from '../sql/quote.js';
import type { LiveState } from '../model/live-state.js';
import { sqlObjectFiles } from './sql-object-files.js';
import { columnEntry } from './column-storage.js';
import { inheritedColumnsEntry } from './inherited-columns.js';
import { dict, dictOf } from '../util/dict.js';

function tableEntry(
  t: Table,
  group: string | undefined,
  key: (q: { schema: string; name: string }) => string,
  tables: LiveState['model']['tables'],
  defaults: ColumnarOptions | undefined,
): Record<string, unknown> {
  const d = t.distribution;
  const out: Record<string, unknown> = {};
  if (d.kind === 'hash') {
    out.distributed_by = d.column;
    out.colocation = group;
  } else if (d.kind === 'reference') out.reference = true;
  else if (d.kind === 'single_shard') out.single_shard = true;
  else if (d.kind === 'citus_local' && !d.auto) out.citus_local = true;
  else if (d.kind !== 'schema') out.local = true; // a distributed schema's table: the schema says it
  if (t.unlogged) out.unlogged = true;
  if (t.ofType) out.of_type = t.ofType;
  if (t.accessMethod) out.access_method = t.accessMethod;
  const options = columnarOptionsEntry(t.columnarOptions, defaults);
  if (options) out.columnar_options = options;
  if (t.storageParameters) out.storage_parameters = storageParametersEntry(t.storageParameters);
  if (t.partitionBy) {
    out.partition_by = t.partitionBy;
    out.partitions = partitionEntries(t, undefined, defaults);
  }
  // Its parents' columns come with them; one whose parent is not a table here is named as not managed.
  const parents = (t.inherits ?? []).map((p) => tables[p]);
  const inherits = parents.length > 0 && parents.every((p) => p !== undefined);
  if (inherits) out.inherits = parents.map((p) => key(p!.qname));
  const own = inherits ? inheritedColumnsEntry(t, tables) : undefined;
  if (own) out.inherited_columns = own;
  out.columns = dictOf<unknown>(
    (t.columns ?? []).filter((c) => !inherits || !c.inherited).map((c) => [c.name, columnEntry(c)] as const),
  );
  // A key is written `{ name, columns }` only when its name is not the one PostgreSQL would give it
  // (or it is DEFERRABLE, which only the object form says).
  const keyEntry = (k: Key, kind: 'primary' | 'unique') => {
    const named = k.name !== undefined && k.name !== defaultKeyName(t.qname.name, kind, k);
    return !named && !k.deferrable && !k.initiallyDeferred && !k.nullsNotDistinct && !k.include
      ? k.columns
      : {
          ...(named ? { name: k.name } : {}),
          columns: k.columns,
          ...(k.include ? { include: k.include } : {}),
          ...deferralEntry(k),
          ...(k.nullsNotDistinct ? { nulls_not_distinct: true } : {}),
        };
  };
  if (t.primaryKey) out.primary_key = keyEntry(t.primaryKey, 'primary');
  if (t.unique.length > 0) out.unique = t.unique.map((u) => keyEntry(u, 'unique'));
  if (t.indexes.length > 0)
    out.indexes = t.indexes.map((i) => ({
      ...(i.name ? { name: i.name } : {}),
      columns: i.columns,
      ...(i.unique ? { unique: true } : {}),
      ...(i.using !== 'btree' ? { using: i.using } : {}),
    }));
  if (t.foreignKeys.length > 0) {
    out.foreign_keys = t.foreignKeys.map((fk) => ({
      ...(fk.name ? { name: fk.name } : {}),
      columns: fk.columns,
      references: key(tables[fk.refTable]!.qname),
      ref_columns: fk.refColumns,
      ...(fk.onDelete ? { on_delete: fk.onDelete } : {}),
      ...(fk.onUpdate ? { on_update: fk.onUpdate } : {}),
      ...(fk.matchFull ? { match: 'full' } : {}),
      ...deferralEntry(fk),
      ...(fk.notValid ? { not_valid: true } : {}),
    }));
  }
  return out;
}

/** `deferrable` / `initially_deferred` as the manifest writes them (only when set). */
const deferralEntry = (d: Deferral): Record<string, boolean> => ({
  ...(d.deferrable || d.initiallyDeferred ? { deferrable: true } : {}),
  ...(d.initiallyDeferred ? { initially_deferred: true } : {}),
});

/** A routine signature, name(type, ...), with the name quoted as PostgreSQL needs (a reserved word such as select too). */
export function routineSignature(name: string, argTypes: readonly string[]): string {
  return `${quoteIdent(name)}(${argTypes.join(', ')})`;
}

/** The manifest (YAML text) that describes the live state, without files (routines by signature, no SQL objects). */
export function liveToManifest(live: LiveState, opts: { defaultSchema?: string } = {}): string {
  return liveToProject(live, { ...opts, files: false }).manifest;
}

/** A file name made of an object name: letters, digits, _ . - kept, the rest replaced. */
const fileSafe = (name: string): string =>
  name
    .replace(/[^A-Za-z0-9_.-]+/g, '_')
    .replace(/^[.]+/, '_')
    .slice(0, 100);

/**
 * The manifest and the files it references: with `files`, routine bodies go to routines/*.sql
 * and objects defined by SQL (views, types, indexes, constraints, triggers, policies, comments,
 * extensions) to sql/*.sql, listed under `sql:`.
 */
export function liveToProject(
  live: LiveState,
  opts: { defaultSchema?: string; files: boolean },
): {
  manifest: string;
  files: Record<string, string>;
  objectsLeftOut: number;
  unfinishedFills: string[];
  unfinishedRetypes: string[];
} {
  // The marker of a fill an interrupted apply left is the plan's state, not the user's CHECK; so
  // are the shadow column, trigger and marker of an online type change.
  const { actual: unfilled, pending } = pendingBackfills(live.model);
  const { actual: m, pending: retypes } = pendingRetypes(unfilled);
  live = { ...live, model: m };
  const defaultSchema = opts.defaultSchema ?? 'public';
  const key = (q: { schema: string; name: string }): string => formatQualifiedKey(q, defaultSchema);
  const groupName = new Map<string, string>();
  const used = new Set<string>();
  const colocation = dict<unknown>();
  for (const g of Object.values(m.groups)) {
    // Name the group after its parent table: a member with no foreign key to another member.
    const parent = g.members.find(
      (id) => !m.tables[id]!.foreignKeys.some((fk) => fk.refTable !== id && g.members.includes(fk.refTable)),
    );
    const anchor = m.tables[parent ?? g.anchor]!;
    let name = anchor.qname.name.slice(0, 55);
    for (let i = 2; used.has(name); i++) name = `${anchor.qname.name.slice(0, 55)}_${i}`;
    used.add(name);
    groupName.set(g.name, name);
    colocation[name] = { shard_count: g.shardCount, anchor: key(anchor.qname) };
  }
  const tables = dict<unknown>();
  for (const t of Object.values(m.tables)) {
    tables[key(t.qname)] = tableEntry(
      t,
      t.distribution.kind === 'hash' ? groupName.get(t.distribution.group) : undefined,
      key,
      m.tables,
      m.columnarDefaults,
    );
  }
  const sequences = manifestSequences(m, key);
  const files = dict<string>();
  const routines = dict<unknown>();
  const byName = new Map<string, number>();
  for (const r of Object.values(m.routines)) byName.set(key(r.qname), (byName.get(key(r.qname)) ?? 0) + 1);
  for (const r of Object.values(m.routines)) {
    if (!r.argTypes) continue;
    // Overloads (one name, other argument types) are each keyed by their signature.
    // A signature is read as SQL: its name quoted as SQL quotes it (a keyword such as `extract`,
    // upper case), where a plain key keeps the manifest's spelling.
    const k =
      byName.get(key(r.qname))! > 1
        ? `${r.qname.schema === defaultSchema ? quoteIdent(r.qname.name) : quoteQualified(r.qname)}(${r.argTypes.join(', ')})`
        : key(r.qname);
    const d = r.distribution;
    // A routine Citus does not know stays on the coordinator (declaring it otherwise would plan
    // create_distributed_function).
    let source: Record<string, string> = { signature: routineSignature(r.qname.name, r.argTypes) };
    if (opts.files && r.definition !== undefined) {
      let file = `routines/${fileSafe(`${r.qname.schema}.${r.qname.name}`)}.sql`;
      for (let i = 2; files[file] !== undefined; i++)
        file = `routines/${fileSafe(`${r.qname.schema}.${r.qname.name}`)}_${i}.sql`;
      files[file] = `${r.definition.trimEnd()}\n`;
      source = { file };
    }
    if (!d) {
      routines[k] = { ...source, local: true };
      continue;
    }
    const colocatedTable = d.colocateWith ? m.tables[d.colocateWith] : undefined;
    const group =
      colocatedTable?.distribution.kind === 'hash' ? groupName.get(colocatedTable.distribution.group) : undefined;
    routines[k] = {
      // argTypes are format_type() output, already valid SQL type names.
      ...source,
      ...(d.argIndex !== undefined && group
        ? { distributed_by: `$${d.argIndex + 1}`, colocation: group, force_delegation: d.forceDelegation ?? false }
        : {}),
      // Colocated without a distribution argument (with a reference table, say): the table it goes with.
      ...(d.argIndex === undefined && colocatedTable ? { colocate_with: key(colocatedTable.qname) } : {}),
    };
  }
  const objects = Object.values(m.objects);
  if (opts.files) Object.assign(files, sqlObjectFiles(live, files));
  const sql = Object.keys(files).some((f) => f.startsWith('sql/')) ? ['sql'] : [];
  const schemas = schemasEntry(m, defaultSchema, opts.files);
  const doc = {
    version: 1,
    defaults: { schema: defaultSchema, shard_count: DEFAULT_SHARD_COUNT },
    ...(Object.keys(colocation).length ? { colocation } : {}),
    ...(schemas ? { schemas } : {}),
    ...(Object.keys(tables).length ? { tables } : {}),
    ...(Object.keys(sequences).length ? { sequences } : {}),
    ...(Object.keys(routines).length ? { routines } : {}),
    ...(sql.length ? { sql } : {}),
  };
  // The header is a YAML comment written by the yaml package: a database name holding a line
  // break stays inside the comment.
  const out = new Document(doc);
  out.commentBefore = manifestHeader(live);
  return {
    manifest: out.toString({ lineWidth: 0 }),
    files,
    objectsLeftOut: opts.files ? 0 : objects.length,
    unfinishedFills: pending.map((p) => `${quoteQualified(p.table)}.${quoteIdent(p.column)} (${quoteIdent(p.marker)})`),
    unfinishedRetypes: retypes.map((p) => `${quoteQualified(p.table)}.${quoteIdent(p.column)} (to ${p.type})`),
  };
}
