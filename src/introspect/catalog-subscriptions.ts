// The parts of the catalog query (catalog-more-objects.ts) that read subscriptions (CREATE
// SUBSCRIPTION) of this database as objects defined by SQL, with every option PostgreSQL 15 keeps
// written out. Their connection string is not read here: pg_subscription.subconninfo is for
// superusers only (a query naming it fails for other roles), so the statement holds
// '<connection>' until subscription-secrets.ts puts its digest there. Citus's own subscriptions
// (a shard move's or split's, while one runs) are left out. Citus does not propagate a subscription.
// The tables each receives are read too (pg_subscription_rel).
import { cls, qn } from './catalog-fragments.js';
import { RECEIVES, UNREAD_CONNECTION } from '../objects/subscription.js';

const NAME = 'pg_catalog.quote_ident(s.subname)';
const BOOL = (col: string): string => `CASE WHEN ${col} THEN 'true' ELSE 'false' END`;

/** This database's subscriptions (pg_subscription is shared by every database), not Citus's own. */
export const SUBSCRIPTIONS_HERE = `s.subdbid OPERATOR(pg_catalog.=) (SELECT d.oid FROM pg_catalog.pg_database d WHERE d.datname OPERATOR(pg_catalog.=) pg_catalog.current_database())
    AND NOT (s.subname::pg_catalog.text OPERATOR(pg_catalog.~) '^citus_shard_(move|split)_subscription_'::pg_catalog.text)`;

/** A UNION ALL branch of the obj CTE. */
export const SUBSCRIPTION_OBJECTS = `  UNION ALL
  SELECT 'subscription', ${NAME}, NULL,
    pg_catalog.json_build_array('CREATE SUBSCRIPTION ' || ${NAME} || ' CONNECTION ''${UNREAD_CONNECTION}'' PUBLICATION '
      || (SELECT pg_catalog.string_agg(pg_catalog.quote_ident(p.n), ', ' ORDER BY p.o) FROM pg_catalog.unnest(s.subpublications) WITH ORDINALITY AS p(n, o))
      || ' WITH (enabled = ' || ${BOOL('s.subenabled')}
      || ', slot_name = ' || COALESCE(pg_catalog.quote_literal(s.subslotname::pg_catalog.text), 'NONE')
      || ', binary = ' || ${BOOL('s.subbinary')}
      || ', streaming = ' || CASE WHEN s.substream THEN 'on' ELSE 'off' END
      || ', synchronous_commit = ' || pg_catalog.quote_literal(s.subsynccommit)
      || ', two_phase = ' || ${BOOL(`s.subtwophasestate OPERATOR(pg_catalog.<>) 'd'::pg_catalog."char"`)}
      || ', disable_on_error = ' || ${BOOL('s.subdisableonerr')} || ')'),
    pg_catalog.json_build_array('DROP SUBSCRIPTION ' || ${NAME}),
    ${cls('pg_subscription')}, s.oid, NULL, NULL
  FROM pg_catalog.pg_subscription s
  WHERE ${SUBSCRIPTIONS_HERE}
`;

/**
 * A UNION ALL branch of the objdeps CTE: the tables a subscription receives (pg_subscription_rel),
 * as `receives relation app.t`, which no other object provides (so nothing is dropped or ordered
 * by it): plan/checks/subscription-problems.ts reads them.
 */
export const SUBSCRIPTION_DEPS = `
    UNION ALL
    SELECT ${cls('pg_subscription')}, sr.srsubid, '${RECEIVES}' || ${qn('ns.nspname', 'c.relname')}
    FROM pg_catalog.pg_subscription_rel sr JOIN pg_catalog.pg_class c ON c.oid = sr.srrelid
      JOIN pg_catalog.pg_namespace ns ON ns.oid = c.relnamespace`;

/** A UNION ALL branch of the comments (keyword, target, parent, description): a subscription's is in pg_shdescription. */
export const SUBSCRIPTION_COMMENTS = `    UNION ALL
    SELECT 'SUBSCRIPTION', ${NAME}, 'subscription ' || ${NAME}, d.description
    FROM pg_catalog.pg_shdescription d JOIN pg_catalog.pg_subscription s ON s.oid = d.objoid AND d.classoid = ${cls('pg_subscription')}
    WHERE ${SUBSCRIPTIONS_HERE}
`;
