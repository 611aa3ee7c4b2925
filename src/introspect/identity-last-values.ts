// Where each identity column's sequence is (its last value, or `unused` when nextval was never
// called): a plan RESTARTs an unused one at its new START and refuses new bounds that leave a
// used one outside them (plan/diff/identity.ts). pg_sequence_last_value takes a RowExclusiveLock
// on each sequence until the statement's transaction ends, so this is not part of the catalog
// query: it runs only when there are identity columns, in statements of at most BATCH sequences,
// so thousands of identity columns do not fill the lock table (max_locks_per_transaction ×
// connections, shared by every session) in one statement. pg_sequences' guard: a role that may
// not read a sequence gets `unknown`, not an error.
import type { Queryable } from '../db/connect.js';
import type { CatalogDoc } from '../model/catalog-doc.js';

const BATCH = 500;

const LAST_VALUES_SQL = `SELECT n.nspname AS schema, c.relname AS name,
    CASE WHEN pg_catalog.has_sequence_privilege(c.oid, 'SELECT,USAGE')
      THEN COALESCE(pg_catalog.pg_sequence_last_value(c.oid)::pg_catalog.text, 'unused') ELSE 'unknown' END AS last
  FROM ROWS FROM (pg_catalog.unnest($1::pg_catalog.text[]), pg_catalog.unnest($2::pg_catalog.text[])) AS q(schema, name)
  JOIN pg_catalog.pg_namespace n ON n.nspname OPERATOR(pg_catalog.=) q.schema
  JOIN pg_catalog.pg_class c ON c.relnamespace OPERATOR(pg_catalog.=) n.oid AND c.relname OPERATOR(pg_catalog.=) q.name AND c.relkind OPERATOR(pg_catalog.=) 'S'`;

/** The document with each identity sequence's last value; one round trip per BATCH identity columns, none without any. */
export async function withIdentityLastValues(
  db: Queryable,
  doc: CatalogDoc,
): Promise<{ doc: CatalogDoc; roundTrips: number }> {
  const identity = doc.sequences.filter((s) => s.ownedBy?.deptype === 'i');
  if (identity.length === 0) return { doc, roundTrips: 0 };
  const last = new Map<string, string>();
  let roundTrips = 0;
  for (let i = 0; i < identity.length; i += BATCH) {
    const batch = identity.slice(i, i + BATCH);
    const r = await db.query<{ schema: string; name: string; last: string }>(LAST_VALUES_SQL, [
      batch.map((s) => s.schema),
      batch.map((s) => s.name),
    ]);
    roundTrips++;
    for (const row of r.rows) last.set(JSON.stringify([row.schema, row.name]), row.last);
  }
  const sequences = doc.sequences.map((s) => {
    const v = s.ownedBy?.deptype === 'i' ? last.get(JSON.stringify([s.schema, s.name])) : undefined;
    return v !== undefined ? { ...s, lastValue: v } : s;
  });
  return { doc: { ...doc, sequences }, roundTrips };
}
