// What the tool knows of each kind of object defined by SQL, in one record per kind (as the step
// kinds have theirs in plan/steps/*-spec.ts): where its CREATE goes, what others call it by, who owns it,
// what a prune loses, what its statements touch. A new kind is one record here: the type makes a
// missing one a compile error. Read by the planner, apply's batching and introspect's writer.
import type { ObjectKind } from './object-kinds.js';

/** How other objects name what an object makes ("relation app.v", "type app.e"…). */
export type ProvidedName =
  'relation' | 'type' | 'index' | 'constraint' | 'routine' | 'statistics' | 'collation' | 'publication' | 'server';

export interface ObjectKindSpec {
  /** The file of introspect's `sql/` folder it is written to (`sql/<file>.sql`). */
  readonly sqlFile: string;
  /** A type columns may use (or what makes types): created before tables are created or changed, dropped after. */
  readonly type?: true;
  /** What others reference it by (none: nothing names it but its own id). */
  readonly provides?: ProvidedName;
  /** How ALTER … OWNER TO names it; absent: it has no owner of its own. */
  readonly ownerKeyword?: string;
  /** What ALTER DEFAULT PRIVILEGES … ON <target>S makes grants on it (a new view: TABLE). */
  readonly defaultPrivileges?: 'TABLE' | 'TYPE';
  /** Pruned for good, it loses what was built on it (a view's readers, a type's columns). */
  readonly pruneLoses?: true;
  /** Its CREATE may read the rows of the table it is on (a constraint checked as it is added). */
  readonly scansTable?: true;
  /** Its CREATE or ALTER writes only the catalog: it never runs long. */
  readonly catalogOnly?: true;
  /** Its CREATE evaluates the user's expressions over rows (functions it calls run then). */
  readonly evaluates?: true;
  /** A view: Citus's table-rebuilding functions recreate it over the tables they rebuild. */
  readonly view?: true;
  /** Attached to another object (a comment, grants): Citus recreates a view without it. */
  readonly attached?: true;
  /** Citus does not propagate it to the workers: on Citus the plan makes and drops it there too. */
  readonly notPropagated?: true;
  /** Its statements cannot run in a transaction block (a subscription's slot): run after COMMIT. */
  readonly outsideTransaction?: true;
}

/** An enum, domain or composite type: made before the columns that use it, lost to them if pruned. */
const USER_TYPE = {
  sqlFile: 'types',
  type: true,
  provides: 'type',
  defaultPrivileges: 'TYPE',
  pruneLoses: true,
} as const;
const CONSTRAINT = { sqlFile: 'constraints', provides: 'constraint', scansTable: true } as const;

export const OBJECT_SPEC: Readonly<Record<ObjectKind, ObjectKindSpec>> = {
  extension: { sqlFile: 'extensions', type: true },
  // Built on the server's code (a handler, a validator): made before the tables, routines and
  // servers that use them (a routine's LANGUAGE, a table's USING, a server's wrapper). Citus
  // propagates none of them: the coordinator's (docs/citus-facts.md).
  language: { sqlFile: 'server-code', type: true, ownerKeyword: 'LANGUAGE', catalogOnly: true },
  'access method': { sqlFile: 'server-code', type: true, catalogOnly: true },
  'foreign data wrapper': {
    sqlFile: 'server-code',
    type: true,
    ownerKeyword: 'FOREIGN DATA WRAPPER',
    catalogOnly: true,
  },
  // How a type's values pass to and from a procedural language's routines (after both).
  transform: { sqlFile: 'server-code', catalogOnly: true },
  // Created before the tables whose columns use it (Citus propagates it to the workers).
  collation: { sqlFile: 'collations', type: true, provides: 'collation', ownerKeyword: 'COLLATION', catalogOnly: true },
  // The server's functions a dictionary's template and a configuration's parser are made of (Citus
  // propagates neither: a dictionary on a template of the files' fails on the workers).
  'text search parser': { sqlFile: 'text-search', type: true, catalogOnly: true },
  'text search template': { sqlFile: 'text-search', type: true, catalogOnly: true },
  // Before the tables whose generated columns and defaults may name them (Citus propagates both).
  'text search dictionary': {
    sqlFile: 'text-search',
    type: true,
    ownerKeyword: 'TEXT SEARCH DICTIONARY',
    catalogOnly: true,
  },
  'text search configuration': {
    sqlFile: 'text-search',
    type: true,
    ownerKeyword: 'TEXT SEARCH CONFIGURATION',
    catalogOnly: true,
  },
  // CREATE TYPE t; alone, or as the first step of a base type the plan makes (objects/base-type.ts).
  'shell type': { sqlFile: 'types', type: true, ownerKeyword: 'TYPE', catalogOnly: true },
  // CREATE TYPE t (INPUT = …, OUTPUT = …): after its functions; dropped or changed only by hand
  // (PostgreSQL drops it with its functions, DROP TYPE … CASCADE: plan/diff/base-types.ts).
  'base type': { ...USER_TYPE, ownerKeyword: 'TYPE', catalogOnly: true },
  enum: { ...USER_TYPE, ownerKeyword: 'TYPE', catalogOnly: true },
  domain: { ...USER_TYPE, ownerKeyword: 'DOMAIN' },
  'composite type': { ...USER_TYPE, ownerKeyword: 'TYPE', catalogOnly: true },
  // (with its multirange type; Citus neither propagates it nor distributes a table that uses it)
  'range type': { ...USER_TYPE, ownerKeyword: 'TYPE', catalogOnly: true },
  view: {
    sqlFile: 'views',
    provides: 'relation',
    ownerKeyword: 'VIEW',
    defaultPrivileges: 'TABLE',
    pruneLoses: true,
    catalogOnly: true,
    view: true,
  },
  'materialized view': {
    sqlFile: 'views',
    provides: 'relation',
    ownerKeyword: 'MATERIALIZED VIEW',
    defaultPrivileges: 'TABLE',
    evaluates: true,
    view: true,
  },
  // CREATE SERVER (Citus propagates it); the foreign tables on it depend on it, and foreign
  // partitions, made with the tables: so made before them, and dropped after.
  'foreign server': {
    sqlFile: 'foreign-servers',
    type: true,
    provides: 'server',
    ownerKeyword: 'SERVER',
    catalogOnly: true,
  },
  // CREATE [DEFAULT] CONVERSION: used where a client's encoding is converted (Citus does not propagate it).
  conversion: { sqlFile: 'conversions', ownerKeyword: 'CONVERSION', catalogOnly: true },
  // CREATE USER MAPPING: on the server it names (Citus does not propagate it: the coordinator's, where
  // a foreign table's queries run); its secret options come from the environment (objects/user-mapping.ts).
  // Pruned, its password is gone: the manifest never held it.
  'user mapping': { sqlFile: 'user-mappings', catalogOnly: true, pruneLoses: true },
  // CREATE FOREIGN TABLE: a relation views and grants may be on; its rows are elsewhere.
  'foreign table': {
    sqlFile: 'foreign-tables',
    provides: 'relation',
    ownerKeyword: 'FOREIGN TABLE',
    defaultPrivileges: 'TABLE',
    pruneLoses: true,
    catalogOnly: true,
  },
  aggregate: { sqlFile: 'aggregates', provides: 'routine', ownerKeyword: 'AGGREGATE', catalogOnly: true },
  operator: { sqlFile: 'operators', ownerKeyword: 'OPERATOR', catalogOnly: true },
  // Named with their method (`app.my_ops USING hash`), as ALTER … OWNER TO names them. Citus
  // propagates neither, and refuses a Citus table whose index uses one (plan/checks/opclass-problems.ts).
  'operator family': { sqlFile: 'operators', ownerKeyword: 'OPERATOR FAMILY', catalogOnly: true },
  'operator class': { sqlFile: 'operators', ownerKeyword: 'OPERATOR CLASS', catalogOnly: true },
  // No owner (its function's owner decides who may drop it); Citus does not propagate it: made on the workers too.
  cast: { sqlFile: 'casts', catalogOnly: true, notPropagated: true },
  index: { sqlFile: 'indexes', provides: 'index', evaluates: true },
  // CREATE STATISTICS: its data comes from the next ANALYZE (Citus propagates it to the shards).
  'statistics object': { sqlFile: 'statistics', provides: 'statistics', ownerKeyword: 'STATISTICS', catalogOnly: true },
  'check constraint': { ...CONSTRAINT, evaluates: true },
  'exclusion constraint': { ...CONSTRAINT, evaluates: true },
  'primary key': CONSTRAINT,
  'unique constraint': CONSTRAINT,
  'foreign key': CONSTRAINT,
  'column default': { sqlFile: 'partition-columns', catalogOnly: true },
  // A partition's own COMPRESSION on a column, or a materialized view's: values written from then on.
  'column compression': { sqlFile: 'partition-columns', catalogOnly: true },
  // A materialized view's column's SET STATISTICS / STORAGE / (…).
  'column setting': { sqlFile: 'partition-columns', catalogOnly: true },
  'not null': { sqlFile: 'partition-columns', scansTable: true },
  trigger: { sqlFile: 'triggers', catalogOnly: true },
  // A partition's clone of its table's trigger in another state than the table's (ALTER TABLE
  // partition DISABLE TRIGGER t, as pg_dump writes it): after the table's trigger.
  'trigger state': { sqlFile: 'triggers', catalogOnly: true },
  rule: { sqlFile: 'rules', catalogOnly: true },
  'row level security': { sqlFile: 'policies', catalogOnly: true },
  policy: { sqlFile: 'policies', catalogOnly: true },
  'replica identity': { sqlFile: 'table-options', catalogOnly: true },
  'cluster on': { sqlFile: 'table-options', catalogOnly: true },
  // ALTER TABLE / INDEX … SET TABLESPACE: moves the relation's files (a table's or partition's, or
  // a key's index): ACCESS EXCLUSIVE while it copies (plan/diff/tablespaces.ts).
  tablespace: { sqlFile: 'table-options' },
  // ALTER SEQUENCE … SET LOGGED / UNLOGGED of a sequence a column owns, otherwise than its table.
  'sequence persistence': { sqlFile: 'table-options', catalogOnly: true },
  comment: { sqlFile: 'comments', catalogOnly: true, attached: true },
  privileges: { sqlFile: 'privileges', catalogOnly: true, attached: true },
  // ALTER … OWNER TO: Citus propagates it (and recreates a view with its owner).
  owner: { sqlFile: 'owners', catalogOnly: true },
  // ALTER … DEPENDS ON EXTENSION: Citus refuses it on a distributed function (plan problem).
  'extension dependency': { sqlFile: 'extension-dependencies', catalogOnly: true },
  // Dropped for good, its subscribers stop receiving changes (and the rows written meanwhile).
  publication: {
    sqlFile: 'publications',
    provides: 'publication',
    ownerKeyword: 'PUBLICATION',
    catalogOnly: true,
    pruneLoses: true,
  },
  // CREATE SUBSCRIPTION (objects/subscription.ts): its connection string from the environment.
  // Made, dropped and its publications refreshed after COMMIT when that makes or drops its
  // replication slot on the publisher or copies rows, which PostgreSQL does not do in a
  // transaction block (the tables it writes exist by then). Dropped for good, its slot goes with it: what the publisher writes meanwhile is not
  // received. Citus does not propagate it: it is the coordinator's.
  subscription: {
    sqlFile: 'subscriptions',
    ownerKeyword: 'SUBSCRIPTION',
    pruneLoses: true,
    outsideTransaction: true,
  },
  // Runs its function on every DDL statement of its event, as whoever runs it (the tool's role
  // too): made after the plan's other objects; one whose function another role owns is the
  // hazard runs_foreign_code on every step of later plans (plan/checks/foreign-code.ts).
  'event trigger': { sqlFile: 'event-triggers', ownerKeyword: 'EVENT TRIGGER', catalogOnly: true },
};
