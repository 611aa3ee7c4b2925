// The session settings every connection the tool opens runs with, whatever the server, database
// or role defaults are. Quoting (src/sql/quote.ts) and the parser that reads user SQL both assume
// the standard meaning of '…' (a backslash is a plain character): with standard_conforming_strings
// = off, still the default on old installations, `'a\''); DROP …` written for the standard
// meaning ends its literal early and runs the rest. client_encoding is pinned because node-postgres
// always sends UTF-8, and a client encoding such as SJIS or BIG5 would read a backslash out of
// a multibyte character. search_path is left as the role has it: user SQL may rely on it, and the
// tool qualifies its own names (the plan pins it with SET LOCAL where an object is created).
// escape_string_warning and backslash_quote only act when standard_conforming_strings is off, and
// check_function_bodies does not change how text is read, so they are left alone.
// A SET right after connecting, not a startup `options` parameter: PgBouncer refuses unknown
// startup parameters, and it tracks both of these and restores them on each server connection.
import type pg from 'pg';

/** The statement run on every session right after it connects. */
export const SESSION_SETUP = "SET standard_conforming_strings = on; SET client_encoding = 'UTF8'";

/**
 * Asked in the same round trip: whether the database has the citus extension. The catalog query
 * then goes out in the form that answers (introspect/catalog-query.ts) rather than the Citus one
 * failing first on plain PostgreSQL: its failure came back while the manifest was being parsed,
 * and the plain query went out only after it (a plan's ~140 ms idle on a real schema).
 */
const CITUS_PROBE =
  "SELECT EXISTS (SELECT FROM pg_catalog.pg_extension WHERE extname OPERATOR(pg_catalog.=) 'citus') AS citus";

const hasCitus = new WeakMap<object, boolean>();

/** Connects the client and applies the tool's session settings. */
export async function connectSession(client: pg.Client): Promise<void> {
  await client.connect();
  const results = (await client.query(`${SESSION_SETUP}; ${CITUS_PROBE}`)) as unknown as pg.QueryResult[];
  const row = results[results.length - 1]?.rows[0] as { citus?: unknown } | undefined;
  if (typeof row?.citus === 'boolean') hasCitus.set(client, row.citus);
}

/**
 * Whether the database of a session connectSession opened had the citus extension when it
 * connected (undefined: another session). The extension may be created or dropped since: a reader
 * that relies on it still falls back.
 */
export function sessionHasCitus(client: object): boolean | undefined {
  return hasCitus.get(client);
}
