// The settings a plan's statements run under, pinned whatever the server, database or role says.

/**
 * The search_path the plan's statements resolve their unqualified names with: pg_catalog first,
 * so a built-in type, function or operator is never stood in for by one of another schema with
 * the same name and arguments (`text` is pg_catalog.text even when the database's search_path
 * says `public, pg_catalog`), then public, the schema the catalog query prints names relative to
 * (catalog-query.ts) and so the one an unqualified name of the manifest means. A sql: file's
 * statements run with their schema in place of public, and the path is pinned again after them.
 */
export const PLAN_SEARCH_PATH = 'pg_catalog, public';

/**
 * Settings the plan depends on, each pinned for its statements whatever the server, database or
 * role says: a database's owner may ALTER DATABASE … SET any of them (they are all settable by
 * any user), and each would otherwise make the plan do something else than it shows, or lie:
 * DDL not propagated to the workers while the apply says "verified", a timestamptz default read
 * in another time zone, every new table columnar, a new schema distributed by itself.
 */
export const PINNED_SETTINGS: readonly (readonly [name: string, value: string])[] = [
  // Citus's own settings first: they are the coordinator's. Sent to a worker (as the SET LOCALs
  // after citus.propagate_set_commands are), DDL propagation on would make the worker try to
  // propagate what Citus runs there, and refuse it ("operation is not allowed on this node").
  ['citus.shard_replication_factor', '1'],
  ['citus.enable_ddl_propagation', 'on'],
  ['citus.enable_metadata_sync', 'on'],
  ['citus.enable_create_type_propagation', 'on'],
  ['citus.create_object_propagation', "'immediate'"],
  ['citus.enable_schema_based_sharding', 'off'],
  ['citus.use_citus_managed_tables', 'off'],
  ['citus.enable_unsafe_triggers', 'off'],
  ['citus.enforce_foreign_key_restrictions', 'on'],
  ['citus.allow_unsafe_constraints', 'off'],
  ['citus.enable_manual_changes_to_shards', 'off'],
  // Citus sends the SET LOCALs after this one to every worker connection of the transaction too
  // (lock_timeout and statement_timeout included; by default they stay on the coordinator), so
  // what Citus runs on the workers for the plan resolves names and reads literals as here.
  ['citus.propagate_set_commands', "'local'"],
  ['search_path', PLAN_SEARCH_PATH],
  // The plan's text means what it says under the standard string syntax (src/db/session.ts).
  // The tool's own sessions set it at connect; this keeps a plan file run by psql on a server
  // with standard_conforming_strings = off from reading a backslash as an escape (psql follows
  // the setting the server reports, statement by statement).
  ['standard_conforming_strings', 'on'],
  // Literals of time types are read in UTC and ISO style, as the catalog query prints them (catalog-query.ts).
  ['TimeZone', "'UTC'"],
  ['DateStyle', "'ISO, MDY'"],
  ['IntervalStyle', "'postgres'"],
  ['xmloption', "'content'"],
  // A table the manifest declares without an access method is a heap table, in the default tablespace.
  ['default_table_access_method', "'heap'"],
  ['default_tablespace', "''"],
  ['check_function_bodies', 'on'],
];

/** `SET LOCAL name TO value` of a pinned setting (inside the plan's transaction). */
export const pinLocal = (name: string): string => {
  const found = PINNED_SETTINGS.find(([n]) => n === name);
  if (!found) throw new TypeError(`not a pinned setting: ${name}`);
  return `SET LOCAL ${found[0]} TO ${found[1]}`;
};

/** The same settings for a whole session: what runs after COMMIT (CONCURRENTLY, procedures that commit) has no transaction to pin them in. */
export const SESSION_PINS: readonly string[] = PINNED_SETTINGS.map(([name, value]) => `SET ${name} TO ${value}`);

/**
 * The search_path of the tool's own statements (the catalog, the history, locks): nothing but
 * pg_catalog (and pg_temp last, for relations only), so no operator of another schema can match
 * one of them better than pg_catalog's. The user's SQL runs with PLAN_SEARCH_PATH.
 */
export const TOOL_SEARCH_PATH = 'pg_catalog, pg_temp';

/** An apply's session settings: the plan's, with the tool's own search_path between the user's statements. */
export const APPLY_SESSION_PINS: readonly string[] = PINNED_SETTINGS.map(([name, value]) =>
  name === 'search_path' ? `SET search_path TO ${TOOL_SEARCH_PATH}` : `SET ${name} TO ${value}`,
);
