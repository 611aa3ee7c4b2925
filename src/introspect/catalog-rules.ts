// The part of the catalog query (catalog-objects.ts's obj rows) that reads rules as objects
// defined by SQL: CREATE RULE as pg_get_ruledef prints it, and its enabled state as a trigger's.
import { cls, qn } from './catalog-fragments.js';

/** A UNION ALL branch of the obj CTE (over its anyrel). */
export const RULE_OBJECTS = `  UNION ALL
  -- Rules (CREATE RULE; a view's own _RETURN rule is the view), with their enabled state as triggers have it.
  SELECT 'rule', ${qn('r.nspname', 'r.relname')} || '.' || pg_catalog.quote_ident(rw.rulename), 'relation ' || ${qn('r.nspname', 'r.relname')},
    CASE rw.ev_enabled WHEN 'O' THEN pg_catalog.json_build_array(pg_catalog.rtrim(pg_catalog.pg_get_ruledef(rw.oid), ';'))
      ELSE pg_catalog.json_build_array(pg_catalog.rtrim(pg_catalog.pg_get_ruledef(rw.oid), ';'), 'ALTER TABLE ' || ${qn('r.nspname', 'r.relname')}
        || CASE rw.ev_enabled WHEN 'D' THEN ' DISABLE' WHEN 'R' THEN ' ENABLE REPLICA' ELSE ' ENABLE ALWAYS' END || ' RULE ' || pg_catalog.quote_ident(rw.rulename)) END,
    pg_catalog.json_build_array('DROP RULE ' || pg_catalog.quote_ident(rw.rulename) || ' ON ' || ${qn('r.nspname', 'r.relname')}),
    ${cls('pg_rewrite')}, rw.oid, NULL, NULL
  FROM pg_catalog.pg_rewrite rw JOIN anyrel r ON r.oid = rw.ev_class WHERE rw.rulename <> '_RETURN'
`;
