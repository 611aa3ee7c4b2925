// The ALTER TABLE statements an SQL file may hold, each an object of its own (or a part of one
// declared before): a CHECK or EXCLUDE constraint; a partition's own primary key, unique
// constraint or foreign key, column default or NOT NULL (a table's are declared in the manifest:
// resolve-partition-keys.ts refuses them on anything but a declared partition); REPLICA IDENTITY, CLUSTER ON, row level
// security, a trigger's or rule's enabled state; ALTER INDEX … SET STATISTICS; a table's or key
// index's SET TABLESPACE, an owned sequence's SET LOGGED / UNLOGGED.
import type { FkAction, ForeignKey, Key, ObjectKind, SqlObject } from '../model/types.js';
import { indexRef, relationRef, sequenceRef } from '../model/object-ref.js';
import { parseStatements, strings, type Node } from '../sql/pg-parse.js';
import { deferral, FK_ACTIONS } from '../model/constraint-parts.js';
import { quoteIdent } from '../sql/quote.js';
import { relName } from './statement-parts.js';

/** What a statement declares: its object's kind, name and owner, or a located refusal (a string). */
export interface Classified {
  readonly kind: ObjectKind;
  readonly name: string;
  readonly parent?: string;
  readonly deps?: readonly string[]; // read otherwise than references() does (aggregates)
  /** A statement that completes an object declared by an earlier statement (enum ADD VALUE, DISABLE TRIGGER). */
  readonly amends?: boolean;
  /** Names it needs that its statement does not spell as a relation (the index of REPLICA IDENTITY USING INDEX, CLUSTER ON). */
  readonly needs?: readonly string[];
  /** A key's or foreign key's columns and what it references. */
  readonly constraint?: SqlObject['constraint'];
  /** CREATE INDEX CONCURRENTLY: built without blocking writes once its table holds rows. */
  readonly online?: boolean;
  /** The statement it is kept as, when not the file's text (an owner's, spelt as the catalog spells it). */
  readonly statement?: string;
}

/** The object name of index `name` in `schema` (an index lives in its table's schema). */
const indexIn = (schema: string, name: string): string => indexRef({ schema, name });

const KEY_KINDS: Readonly<Record<string, ObjectKind>> = {
  CONSTR_CHECK: 'check constraint',
  CONSTR_EXCLUSION: 'exclusion constraint',
  CONSTR_PRIMARY: 'primary key',
  CONSTR_UNIQUE: 'unique constraint',
  CONSTR_FOREIGN: 'foreign key',
};

function addedConstraint(con: Node, table: string, defaultSchema: string): Classified | string {
  const kind = KEY_KINDS[con.contype];
  if (!kind) return 'of ADD CONSTRAINT, only CHECK, EXCLUDE, PRIMARY KEY, UNIQUE and FOREIGN KEY are managed here';
  if (!con.conname) return `a constraint needs a name here: ADD CONSTRAINT name ${kind.toUpperCase()} (…)`;
  const base = { kind, name: `${table}.${quoteIdent(con.conname)}`, parent: relationRef(table) };
  if (kind === 'foreign key') {
    const refTable = relName(con.pktable, defaultSchema);
    return {
      ...base,
      // the table it references (references() reads only the statement's own relation)
      needs: [relationRef(refTable)],
      constraint: {
        columns: strings(con.fk_attrs),
        refTable,
        ...(con.pk_attrs ? { refColumns: strings(con.pk_attrs) } : {}),
      },
    };
  }
  if (kind === 'primary key' || kind === 'unique constraint') {
    if (con.indexname)
      return `${kind} USING INDEX is not managed here: write its columns (ADD CONSTRAINT name ${kind === 'primary key' ? 'PRIMARY KEY' : 'UNIQUE'} (…))`;
    return { ...base, constraint: { columns: strings(con.keys) } };
  }
  return base;
}

/** Classifies one ALTER TABLE (or ALTER INDEX) statement of an SQL file. */
export function alterTableObject(s: Node, defaultSchema: string): Classified | string {
  const table = relName(s.relation, defaultSchema);
  const cmds = (s.cmds ?? []).map((c: Node) => c.AlterTableCmd);
  if (cmds.length !== 1) return 'write one change per ALTER TABLE statement';
  const c = cmds[0];
  if (c.subtype === 'AT_AddConstraint') return addedConstraint(c.def.Constraint, table, defaultSchema);
  // A partition's own column default or NOT NULL (resolve-partition-keys.ts: on a partition only).
  if (c.subtype === 'AT_ColumnDefault' || c.subtype === 'AT_SetNotNull') {
    const kind = c.subtype === 'AT_SetNotNull' ? 'not null' : 'column default';
    return {
      kind,
      name: `${table}.${quoteIdent(c.name)}`,
      parent: relationRef(table),
      constraint: { columns: [c.name] },
    };
  }
  // A partition's own COMPRESSION on a column, or a materialized view's (ALTER MATERIALIZED VIEW).
  if (c.subtype === 'AT_SetCompression')
    return {
      kind: 'column compression',
      name: `${table}.${quoteIdent(c.name)}`,
      parent: relationRef(table),
      constraint: { columns: [c.name] },
    };
  // A materialized view's, foreign table's or partition's column's own SET STATISTICS, SET STORAGE, SET (…)
  // (resolve-partition-keys.ts: on those only; a table's are its columns' keys in the manifest).
  const setting = { AT_SetStatistics: 'statistics', AT_SetStorage: 'storage', AT_SetOptions: 'options' }[
    c.subtype as string
  ];
  if (['OBJECT_MATVIEW', 'OBJECT_TABLE', 'OBJECT_FOREIGN_TABLE'].includes(s.objtype) && setting !== undefined)
    return {
      kind: 'column setting',
      name: `${table}.${quoteIdent(c.name)} ${setting}`,
      parent: relationRef(table),
      constraint: { columns: [c.name] },
    };
  // A table's, partition's or key index's tablespace (a plain index and a materialized view say
  // TABLESPACE in their CREATE); a sequence a column owns logged or not otherwise than its table.
  if (c.subtype === 'AT_SetTableSpace') {
    if (s.objtype === 'OBJECT_TABLE') return { kind: 'tablespace', name: table, parent: relationRef(table) };
    if (s.objtype === 'OBJECT_INDEX')
      return {
        kind: 'tablespace',
        name: table,
        needs: [indexIn(s.relation.schemaname ?? defaultSchema, s.relation.relname)],
      };
    return 'write TABLESPACE in the CREATE MATERIALIZED VIEW (or CREATE INDEX) itself';
  }
  if (s.objtype === 'OBJECT_SEQUENCE') {
    if (c.subtype !== 'AT_SetLogged' && c.subtype !== 'AT_SetUnLogged')
      return 'of ALTER SEQUENCE, only SET LOGGED / UNLOGGED of a sequence a column owns is managed here (sequences are declared in the manifest)';
    return { kind: 'sequence persistence', name: table, needs: [sequenceRef(table)] };
  }
  // ALTER INDEX i ALTER COLUMN n SET STATISTICS completes the index it follows.
  if (s.objtype === 'OBJECT_INDEX') {
    if (c.subtype !== 'AT_SetStatistics') return 'of ALTER INDEX, only ALTER COLUMN … SET STATISTICS is managed here';
    return { kind: 'index', name: table, amends: true };
  }
  // REPLICA IDENTITY and CLUSTER ON: table settings, each an object of its own (one per table).
  const indexSchema = s.relation.schemaname ?? defaultSchema;
  const r = c.subtype === 'AT_ReplicaIdentity' ? c.def.ReplicaIdentityStmt : undefined;
  if (r?.identity_type === 'd')
    return 'REPLICA IDENTITY DEFAULT is what a table has without this statement: leave the statement out';
  if (r || c.subtype === 'AT_ClusterOn') {
    const index = r ? (r.identity_type === 'i' ? r.name : undefined) : c.name;
    const needs = index !== undefined ? [indexIn(indexSchema, index)] : [];
    return { kind: r ? 'replica identity' : 'cluster on', name: table, parent: relationRef(table), needs };
  }
  if (['AT_EnableRowSecurity', 'AT_ForceRowSecurity'].includes(c.subtype))
    return { kind: 'row level security', name: table, parent: relationRef(table) };
  if (['AT_DisableTrig', 'AT_EnableReplicaTrig', 'AT_EnableAlwaysTrig', 'AT_EnableTrig'].includes(c.subtype)) {
    return { kind: 'trigger', name: `${table}.${quoteIdent(c.name)}`, parent: relationRef(table), amends: true };
  }
  if (['AT_DisableRule', 'AT_EnableReplicaRule', 'AT_EnableAlwaysRule', 'AT_EnableRule'].includes(c.subtype)) {
    return { kind: 'rule', name: `${table}.${quoteIdent(c.name)}`, parent: relationRef(table), amends: true };
  }
  return 'this ALTER TABLE is not managed in SQL files: columns, keys and distribution are declared in the manifest';
}

/**
 * The key or foreign key that `ALTER TABLE t ADD CONSTRAINT …` makes (as the catalog prints a
 * partition's own), in the model's terms; undefined for anything else.
 */
export function keyOfStatement(
  statement: string,
  defaultSchema: string,
): { kind: 'primary key' | 'unique'; key: Key } | { kind: 'foreign key'; fk: ForeignKey } | undefined {
  const cmd = parseStatements(statement)[0]?.stmt?.AlterTableStmt?.cmds?.[0]?.AlterTableCmd;
  const con = cmd?.subtype === 'AT_AddConstraint' ? cmd.def.Constraint : undefined;
  if (!con?.conname) return undefined;
  // The parse tree spells actions with pg_constraint's letters (a, r, c, n, d).
  const deferred = deferral({ deferrable: con.deferrable, deferred: con.initdeferred });
  if (con.contype === 'CONSTR_PRIMARY' || con.contype === 'CONSTR_UNIQUE') {
    if (!con.keys) return undefined;
    const key: Key = { name: con.conname, columns: strings(con.keys), ...deferred };
    return { kind: con.contype === 'CONSTR_PRIMARY' ? 'primary key' : 'unique', key };
  }
  if (con.contype !== 'CONSTR_FOREIGN' || !con.pk_attrs) return undefined;
  const action = (a: string | undefined): FkAction => FK_ACTIONS[a ?? 'a'] ?? 'no action';
  const fk: ForeignKey = {
    name: con.conname,
    columns: strings(con.fk_attrs),
    refTable: relName(con.pktable, defaultSchema),
    refColumns: strings(con.pk_attrs),
    ...(action(con.fk_del_action) !== 'no action' ? { onDelete: action(con.fk_del_action) } : {}),
    ...(action(con.fk_upd_action) !== 'no action' ? { onUpdate: action(con.fk_upd_action) } : {}),
    ...deferred,
    ...(con.skip_validation ? { notValid: true } : {}),
  };
  return { kind: 'foreign key', fk };
}
