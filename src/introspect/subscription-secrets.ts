// The second read a subscription needs: its connection string's digest (objects/subscription.ts).
// pg_subscription.subconninfo is for superusers only (a query naming it fails for other roles,
// and would end the transaction it runs in), so the column's privilege is asked first; a role
// that may not read it gets the subscriptions named as not managed, not compared without their
// connection. Runs only when the database has subscriptions.
import type { Queryable } from '../db/connect.js';
import type { CatalogDoc } from '../model/catalog-doc.js';
import { secretDigestSql } from '../objects/user-mapping.js';
import { UNREAD_CONNECTION } from '../objects/subscription.js';
import { subscriptionRef } from '../model/object-ref.js';
import { SUBSCRIPTIONS_HERE } from './catalog-subscriptions.js';

const READABLE_SQL = `SELECT pg_catalog.has_column_privilege('pg_catalog.pg_subscription'::pg_catalog.regclass, 'subconninfo'::pg_catalog.text, 'SELECT'::pg_catalog.text) AS readable`;

const DIGESTS_SQL = `SELECT pg_catalog.quote_ident(s.subname) AS name,
    ${secretDigestSql('s.subconninfo')} AS digest
  FROM pg_catalog.pg_subscription s WHERE ${SUBSCRIPTIONS_HERE}`;

const UNREAD = `'${UNREAD_CONNECTION}'`;

/** The document with each subscription's connection digest, or its subscriptions named as not managed. */
export async function withSubscriptionSecrets(
  db: Queryable,
  doc: CatalogDoc,
): Promise<{ doc: CatalogDoc; roundTrips: number }> {
  if (!doc.objects.some((o) => o.kind === 'subscription')) return { doc, roundTrips: 0 };
  const readable = (await db.query<{ readable: boolean }>(READABLE_SQL)).rows[0]?.readable === true;
  if (!readable) {
    const names = doc.objects.filter((o) => o.kind === 'subscription').map((o) => o.name);
    const parents = new Set(names.map(subscriptionRef));
    return {
      doc: {
        ...doc,
        objects: doc.objects.filter((o) => o.kind !== 'subscription' && !(o.parent && parents.has(o.parent))),
        notManaged: [...doc.notManaged, ...names.map((name) => ({ kind: 'subscription' as const, name }))],
      },
      roundTrips: 1,
    };
  }
  const digests = new Map(
    (await db.query<{ name: string; digest: string }>(DIGESTS_SQL)).rows.map((r) => [r.name, r.digest]),
  );
  const objects = doc.objects.map((o) => {
    const digest = o.kind === 'subscription' ? digests.get(o.name) : undefined;
    if (digest === undefined) return o;
    return { ...o, create: o.create.map((s) => s.replace(UNREAD, `'<secret sha256:${digest}>'`)) };
  });
  return { doc: { ...doc, objects }, roundTrips: 2 };
}
