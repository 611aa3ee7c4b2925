// Turns the catalog document into the same plain-data model the manifest becomes.
import { partitionOf, storageParametersOf } from './to-model-partitions.js';
import { attributeOptions, identityAndCollation, storageOf } from './column-storage.js';
import { schemasHolding } from './catalog-not-managed.js';
import { sha256Hex } from '../util/sha256.js';
import {
  idOf,
  partitionQname,
  routineId,
  type SqlObject,
  type ColocationGroup,
  type Column,
  type Routine,
  type Table,
} from '../model/types.js';
import { ParseFailure, parseTypeText, SERIAL_SPELLING, type TypeInfo } from '../sql/pg-parse.js';
import { stableJson } from '../util/stable-json.js';
import { extractFields } from '../sql/extract-fields.js';
import type { CatalogDoc } from '../model/catalog-doc.js';
import { objectHashes, ownersOf } from './catalog-hashes.js';
import { identityOfColumns, sequencesFromCatalog } from './to-model-sequences.js';
import { extensionTargetsOf, privilegesFromCatalog } from '../objects/privileges-catalog.js';
import { extensionPrivilegesFromCatalog } from '../objects/extension-privileges.js';
import { canonicalPartitionKey } from '../sql/partition-bound.js';
import { deferral, FK_ACTIONS } from '../model/constraint-parts.js';
import { providedNames, type LiveState } from '../model/live-state.js';
import { dict } from '../util/dict.js';
import { relationRef } from '../model/object-ref.js';
import { inheritedSerials } from './inherited-columns.js';

// Kept here too for the callers that import them from the introspection.
export { objectHashes, providedNames, type LiveState };

const typeCache = new Map<string, TypeInfo>();

/** A catalog type (format_type output) as the model's TypeInfo; memoised: a few types recur across thousands of columns. */
function liveType(text: string): TypeInfo {
  let t = typeCache.get(text);
  if (t) return t;
  try {
    t = parseTypeText(text);
  } catch (e) {
    if (!(e instanceof ParseFailure)) throw e;
    t = { base: text, sql: text, serial: false };
  }
  typeCache.set(text, t);
  return t;
}

/** Builds the actual model from a catalog document. */
export function catalogToModel(doc: CatalogDoc): LiveState {
  // Sequences owned by a column (serial): the column is modelled as serial with no default.
  const serialOf = new Map<string, { id: string; type: string }>(); // "table id/column" -> sequence
  for (const s of doc.sequences) {
    // Only the name CREATE TABLE gives it (as the manifest resolves serial): one of another name
    // (its table renamed, or OWNED BY set by hand) is a declared sequence and the default stays.
    if (
      s.ownedBy?.deptype === 'a' &&
      s.schema === s.ownedBy.schema &&
      s.name === `${s.ownedBy.table}_${s.ownedBy.column}_seq`
    )
      serialOf.set(`${idOf({ schema: s.ownedBy.schema, name: s.ownedBy.table })}/${s.ownedBy.column}`, {
        id: idOf(s),
        type: s.type,
      });
  }
  const identities = identityOfColumns(doc);
  const groupMembers = new Map<number, string[]>();
  const groupShards = new Map<number, number>();
  const groupIsolated = new Map<number, readonly number[]>();
  const colocationTable = new Map<number, string>(); // any Citus table's colocation (reference, single-shard too)
  const tables = dict<Table>();
  const distributedSchemas = new Set(doc.distributedSchemas);
  const inheritedSerial = inheritedSerials(doc, serialOf);
  for (const t of doc.tables) {
    if (t.citus?.method === 'r' || t.citus?.method === 'a') continue; // named as not managed, never adopted as local
    const id = idOf(t);
    const columns: Column[] = t.columns.map((c) => {
      let type = liveType(c.type);
      let dflt = c.default ?? undefined;
      if (t.inherits?.length) dflt = inheritedSerial(t, c, dflt) ?? dflt;
      const seq = serialOf.get(`${id}/${c.name}`);
      // Only a sequence of the column's own type is the one serial makes: a bigint sequence
      // owned by an integer column (Rails' default for years) is a sequence declared with its type.
      if (
        seq &&
        seq.type === type.base &&
        dflt !== undefined &&
        /^nextval\(/.test(dflt) &&
        ['smallint', 'integer', 'bigint'].includes(type.base)
      ) {
        type = { ...type, serial: true, sql: SERIAL_SPELLING[type.base]! };
        dflt = undefined;
      }
      // A generated column's expression is read from pg_attrdef like a default.
      const generated = c.generated === 's' ? dflt : undefined;
      if (generated !== undefined) dflt = undefined;
      return {
        name: c.name,
        type,
        notNull: c.notNull,
        ...(dflt !== undefined ? { default: dflt } : {}),
        ...(generated !== undefined ? { generated } : {}),
        ...identityAndCollation(c),
        ...(c.identity ? identities.get(`${id}/${c.name}`) : {}),
        ...storageOf(c.storage),
        ...(c.statistics != null ? { statistics: c.statistics } : {}),
        ...(c.inherited ? { inherited: true } : {}),
        ...(c.compression ? { compression: c.compression } : {}),
        ...(c.options?.length ? { options: attributeOptions(c.options) } : {}),
      };
    });
    if (t.citus?.colocationId && !colocationTable.has(t.citus.colocationId))
      colocationTable.set(t.citus.colocationId, id);
    const pk = t.constraints.find((c) => c.type === 'p');
    let distribution: Table['distribution'] = { kind: 'local' };
    const ct = t.citus;
    if (ct) {
      if (ct.method === 'h' && ct.column) {
        distribution = { kind: 'hash', column: ct.column, group: `colocation:${ct.colocationId}` };
        const members = groupMembers.get(ct.colocationId);
        if (members) members.push(id);
        else groupMembers.set(ct.colocationId, [id]);
        if (!groupShards.has(ct.colocationId)) groupShards.set(ct.colocationId, ct.shards);
        if (ct.isolated?.length && !groupIsolated.has(ct.colocationId)) groupIsolated.set(ct.colocationId, ct.isolated);
      } else if (ct.method === 'n' && ct.repmodel === 't') distribution = { kind: 'reference' };
      else if (ct.method === 'n' && ct.colocationId !== 0)
        distribution = distributedSchemas.has(t.schema) ? { kind: 'schema' } : { kind: 'single_shard' };
      else if (ct.method === 'n') distribution = { kind: 'citus_local', ...(ct.autoconverted ? { auto: true } : {}) };
    }
    tables[id] = {
      id,
      qname: { schema: t.schema, name: t.name },
      columns,
      ...(t.persistence === 'u' ? { unlogged: true } : {}),
      ...(t.am !== null && t.am !== undefined && t.am !== 'heap' ? { accessMethod: t.am } : {}),
      ...(t.columnarOptions ? { columnarOptions: t.columnarOptions } : {}),
      ...storageParametersOf(t),
      ...(t.rows !== undefined && t.bytes !== undefined ? { size: { rows: Math.max(0, t.rows), bytes: t.bytes } } : {}),
      ...(t.partitionBy ? { partitionBy: canonicalPartitionKey(t.partitionBy) } : {}),
      ...(t.partitionBy
        ? {
            partitions: (t.partitions ?? []).map((p) => partitionOf(t.schema, p)),
          }
        : {}),
      ...(t.partitionBy && t.partitionKeyTypes ? { partitionKeyTypes: t.partitionKeyTypes } : {}),
      ...(t.inherits?.length ? { inherits: t.inherits.map((x) => idOf(x)) } : {}),
      ...(t.ofType ? { ofType: t.ofType } : {}),
      ...(pk?.columns
        ? {
            primaryKey: {
              name: pk.name,
              columns: pk.columns,
              ...deferral(pk),
              ...(pk.include?.length ? { include: pk.include } : {}),
              ...(pk.invalid ? { invalid: true } : {}),
            },
          }
        : {}),
      unique: t.constraints
        .filter((c) => c.type === 'u' && c.columns)
        .map((c) => ({
          name: c.name,
          columns: c.columns!,
          ...deferral(c),
          ...(c.nullsNotDistinct ? { nullsNotDistinct: true } : {}),
          ...(c.include?.length ? { include: c.include } : {}),
          ...(c.invalid ? { invalid: true } : {}),
        })),
      indexes: t.indexes
        .filter((i) => i.simple && i.columns)
        .map((i) => ({
          name: i.name,
          columns: i.columns!,
          unique: i.unique,
          using: i.method,
          ...(i.valid === false ? { invalid: true } : {}),
        })),
      foreignKeys: t.constraints
        .filter((c) => c.type === 'f' && c.refTable && c.columns && c.refColumns)
        .map((c) => ({
          name: c.name,
          columns: c.columns!,
          refTable: idOf({ schema: c.refSchema!, name: c.refTable! }),
          refColumns: c.refColumns!,
          ...(FK_ACTIONS[c.onDelete] && c.onDelete !== 'a' ? { onDelete: FK_ACTIONS[c.onDelete]! } : {}),
          ...(FK_ACTIONS[c.onUpdate] && c.onUpdate !== 'a' ? { onUpdate: FK_ACTIONS[c.onUpdate]! } : {}),
          ...(c.validated === false ? { notValid: true } : {}),
          ...(c.matchFull ? { matchFull: true } : {}),
          ...deferral(c),
        })),
      distribution,
    };
  }
  const groups = dict<ColocationGroup>();
  for (const [cid, members] of groupMembers) {
    groups[`colocation:${cid}`] = {
      name: `colocation:${cid}`,
      shardCount: groupShards.get(cid)!,
      ...(groupIsolated.has(cid) ? { isolated: groupIsolated.get(cid)!.map((hash) => ({ hash })) } : {}),
      anchor: members[0]!,
      members,
    };
  }
  const sequences = sequencesFromCatalog(doc);
  const routines = dict<Routine>();
  for (const r of doc.routines) {
    const q = { schema: r.schema, name: r.name };
    const id = routineId(q, r.argTypes);
    const d = r.distribution;
    const colocateWith = d?.colocationId ? colocationTable.get(d.colocationId) : undefined;
    routines[id] = {
      id,
      qname: q,
      kind: r.kind === 'p' ? 'procedure' : 'function',
      argTypes: r.argTypes,
      ...(r.definition !== null ? { definition: r.definition } : {}),
      ...(r.result !== null ? { result: r.result } : {}),
      // Only aggregates among functions are read: pg_describe_object calls them functions.
      ...(r.dependents?.length ? { dependents: r.dependents.map((x) => x.replace(/^function /, 'aggregate ')) } : {}),
      ...(d
        ? {
            distribution: {
              ...(d.argIndex !== null ? { argIndex: d.argIndex } : {}),
              ...(colocateWith ? { colocateWith } : {}),
              ...(d.forceDelegation !== null ? { forceDelegation: d.forceDelegation } : {}),
            },
          }
        : {}),
      ...(r.owner ? { owner: r.owner } : {}),
    };
  }
  const sqlObjects = dict<SqlObject>();
  // A Citus table's (or its partition's) tablespace is its coordinator's shell's alone: named as not managed.
  const citusRelations = new Set(
    Object.values(tables)
      .filter((t) => t.distribution.kind !== 'local')
      .flatMap((t) => [t.qname, ...(t.partitions ?? []).map((p) => partitionQname(t, p))].map((q) => relationRef(q))),
  );
  for (const o of doc.objects ?? []) {
    if (o.kind === 'tablespace' && o.parent !== null && citusRelations.has(o.parent)) continue;
    const id = `${o.kind} ${o.name}`;
    sqlObjects[id] = {
      id,
      kind: o.kind,
      name: o.name,
      ...(o.parent !== null ? { parent: o.parent } : {}),
      create: o.create.map(extractFields),
      drop: o.drop,
      provides: providedNames(o.kind, o.name),
      deps: [...new Set([...o.deps, ...(o.parent ? [o.parent] : [])])].filter(
        (d) => !providedNames(o.kind, o.name).includes(d),
      ),
      ...(o.labels ? { labels: o.labels } : {}),
      ...(o.extension ? { extension: o.extension } : {}),
      ...(o.invalid ? { invalid: true } : {}),
      ...(o.missingOn?.length ? { missingOn: o.missingOn } : {}),
      ...(o.owner ? { owner: o.owner } : {}),
    };
  }
  for (const o of privilegesFromCatalog(doc.acls ?? [])) sqlObjects[o.id] = o;
  const extensionTargets = extensionTargetsOf(doc.extensionAcls ?? []);
  for (const o of extensionPrivilegesFromCatalog(Object.values(extensionTargets))) sqlObjects[o.id] = o;
  const typeUsers = dict<string[]>();
  for (const u of doc.typeUsers ?? []) (typeUsers[u.type] ??= []).push(u.by);
  const objects = objectHashes(doc);
  return {
    model: {
      schemas: doc.schemas,
      schemasWithNotManaged: schemasHolding(doc.schemas, doc.notManaged ?? []),
      distributedSchemas: doc.distributedSchemas,
      columnar: Boolean(doc.server.columnar),
      ...(doc.server.columnarDefaults ? { columnarDefaults: doc.server.columnarDefaults } : {}),
      tables,
      groups,
      sequences,
      routines,
      objects: sqlObjects,
      typeUsers,
      ...(doc.eventTriggers ? { eventTriggers: doc.eventTriggers } : {}),
      ...(doc.roles ? { roles: doc.roles } : {}),
      ...(doc.extensionAcls ? { extensionTargets } : {}),
      ...(doc.workerGrantDrift?.length ? { workerGrantDrift: doc.workerGrantDrift } : {}),
      ...ownersOf(doc),
    },
    doc,
    citus: doc.server.citus !== null,
    // Every part of the document has its hash in `objects`: hashing those is hashing the document, once.
    fingerprint: sha256Hex(stableJson(objects)),
    objects,
  };
}
