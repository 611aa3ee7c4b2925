// The parts of the one catalog query that name owners other than the role reading it (the one
// that applies): of the objects a plan may drop and create again (given back to them after), of
// routines (whose code a step may run with the applier's rights), and of the functions of enabled
// event triggers (they run on every DDL statement). Every operator is pg_catalog's, spelt
// OPERATOR(pg_catalog.…) over operands of its exact types, and every literal is cast.
import { cls, USER_NS } from './catalog-fragments.js';

/** `me`: the oid of the role reading the catalog. */
export const ME_CTE = `me AS (SELECT r.oid FROM pg_catalog.pg_roles r WHERE r.rolname OPERATOR(pg_catalog.=) CURRENT_USER)`;

/** The owner column `owner` (an oid) is another role than the reader. */
export const NOT_ME = (owner: string): string => `${owner} OPERATOR(pg_catalog.<>) (SELECT me.oid FROM me)`;

/** An owner as JSON from a pg_roles row `r` left-joined on it (null when it is the reader). */
export const ownerJson = (r: string): string =>
  `CASE WHEN ${r}.oid IS NULL THEN NULL ELSE pg_catalog.json_build_object('name', ${r}.rolname, 'superuser', ${r}.rolsuper) END`;

/**
 * CTE `objowner(classid, objid, owner)`: the owners other than the reader of views and
 * materialized views (by their _RETURN rule, as `obj` names them), user types, aggregates,
 * operators, operator families and classes, conversions, keyed as `obj`'s depclass and depobj.
 */
export const OBJECT_OWNERS_CTE = `
objowner(classid, objid, owner) AS (
  SELECT ${cls('pg_rewrite')}::pg_catalog.oid, rw.oid, c.relowner FROM pg_catalog.pg_rewrite rw
  JOIN pg_catalog.pg_class c ON c.oid OPERATOR(pg_catalog.=) rw.ev_class
  WHERE c.relnamespace OPERATOR(pg_catalog.=) ANY (${USER_NS}) AND rw.rulename OPERATOR(pg_catalog.=) '_RETURN'::pg_catalog.name
    AND c.relkind OPERATOR(pg_catalog.=) ANY ('{v,m}'::pg_catalog."char"[]) AND ${NOT_ME('c.relowner')}
  UNION ALL
  SELECT ${cls('pg_type')}::pg_catalog.oid, t.oid, t.typowner FROM pg_catalog.pg_type t
  WHERE t.typnamespace OPERATOR(pg_catalog.=) ANY (${USER_NS}) AND ${NOT_ME('t.typowner')}
  UNION ALL
  SELECT ${cls('pg_proc')}::pg_catalog.oid, p.oid, p.proowner FROM pg_catalog.pg_proc p
  WHERE p.pronamespace OPERATOR(pg_catalog.=) ANY (${USER_NS}) AND p.prokind OPERATOR(pg_catalog.=) 'a'::pg_catalog."char" AND ${NOT_ME('p.proowner')}
  UNION ALL
  SELECT ${cls('pg_operator')}::pg_catalog.oid, o.oid, o.oprowner FROM pg_catalog.pg_operator o
  WHERE o.oprnamespace OPERATOR(pg_catalog.=) ANY (${USER_NS}) AND ${NOT_ME('o.oprowner')}
  UNION ALL
  SELECT ${cls('pg_opfamily')}::pg_catalog.oid, f.oid, f.opfowner FROM pg_catalog.pg_opfamily f
  WHERE f.opfnamespace OPERATOR(pg_catalog.=) ANY (${USER_NS}) AND ${NOT_ME('f.opfowner')}
  UNION ALL
  SELECT ${cls('pg_opclass')}::pg_catalog.oid, c.oid, c.opcowner FROM pg_catalog.pg_opclass c
  WHERE c.opcnamespace OPERATOR(pg_catalog.=) ANY (${USER_NS}) AND ${NOT_ME('c.opcowner')}
  UNION ALL
  SELECT ${cls('pg_conversion')}::pg_catalog.oid, cv.oid, cv.conowner FROM pg_catalog.pg_conversion cv
  WHERE cv.connamespace OPERATOR(pg_catalog.=) ANY (${USER_NS}) AND ${NOT_ME('cv.conowner')}
)`;

/**
 * The enabled event triggers (they fire in a session whose session_replication_role is origin, as
 * apply's is) whose function another role owns, as JSON; null when there are none.
 */
export const EVENT_TRIGGERS_JSON = `(SELECT pg_catalog.json_agg(pg_catalog.json_build_object('name', e.evtname,
      'routine', pg_catalog.quote_ident(fn.nspname) OPERATOR(pg_catalog.||) '.'::pg_catalog.text OPERATOR(pg_catalog.||) pg_catalog.quote_ident(f.proname)
        OPERATOR(pg_catalog.||) '('::pg_catalog.text OPERATOR(pg_catalog.||) pg_catalog.pg_get_function_identity_arguments(f.oid) OPERATOR(pg_catalog.||) ')'::pg_catalog.text,
      'owner', ${ownerJson('ro')}) ORDER BY e.evtname)
    FROM pg_catalog.pg_event_trigger e
    JOIN pg_catalog.pg_proc f ON f.oid OPERATOR(pg_catalog.=) e.evtfoid
    JOIN pg_catalog.pg_namespace fn ON fn.oid OPERATOR(pg_catalog.=) f.pronamespace
    JOIN pg_catalog.pg_roles ro ON ro.oid OPERATOR(pg_catalog.=) f.proowner
    WHERE e.evtenabled OPERATOR(pg_catalog.=) ANY ('{O,A}'::pg_catalog."char"[]) AND ${NOT_ME('f.proowner')})`;

/** The joins that give the `obj` row `o` its owner as `ro` (a pg_roles row, null when the reader owns it). */
export const OBJECT_OWNER_JOINS = `
    LEFT JOIN objowner ow ON ow.classid OPERATOR(pg_catalog.=) o.depclass::pg_catalog.oid AND ow.objid OPERATOR(pg_catalog.=) o.depobj
    LEFT JOIN pg_catalog.pg_roles ro ON ro.oid OPERATOR(pg_catalog.=) ow.owner`;
