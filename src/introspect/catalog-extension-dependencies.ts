// The part of the catalog query that reads `ALTER FUNCTION | PROCEDURE | INDEX | MATERIALIZED VIEW
// … DEPENDS ON EXTENSION e` (pg_depend's 'x' rows) as objects of their own, as pg_dump dumps them
// (objects/extension-dependency.ts). A trigger's is part of the trigger (catalog-triggers.ts).
// Read from the extensions (pg_depend's index on the referenced object).
import { argTypes, cls, qn } from './catalog-fragments.js';

const ext = 'pg_catalog.quote_ident(e.extname)';
const FROM_EXTENSION = `pg_catalog.pg_extension e JOIN pg_catalog.pg_depend d ON d.refclassid = ${cls('pg_extension')} AND d.refobjid = e.oid AND d.deptype = 'x'`;

/** Rows (keyword, class, target, parent, extension) of the obj branch below. */
const DEPENDS = `
    SELECT CASE p.prokind WHEN 'p' THEN 'PROCEDURE' ELSE 'FUNCTION' END, 'routine',
      ${qn('ns.nspname', 'p.proname')} || '(' || ${argTypes('p')} || ')', 'routine ' || ${qn('ns.nspname', 'p.proname')}, ${ext}
    FROM ${FROM_EXTENSION} JOIN pg_catalog.pg_proc p ON p.oid = d.objid AND d.classid = ${cls('pg_proc')}
    JOIN ns ON ns.oid = p.pronamespace WHERE p.prokind IN ('f', 'p', 'w')
    UNION ALL
    SELECT CASE c.relkind WHEN 'i' THEN 'INDEX' ELSE 'MATERIALIZED VIEW' END, CASE c.relkind WHEN 'i' THEN 'index' ELSE 'materialized view' END,
      ${qn('ns.nspname', 'c.relname')}, CASE c.relkind WHEN 'i' THEN 'index ' ELSE 'relation ' END || ${qn('ns.nspname', 'c.relname')}, ${ext}
    FROM ${FROM_EXTENSION} JOIN pg_catalog.pg_class c ON c.oid = d.objid AND d.classid = ${cls('pg_class')}
    JOIN ns ON ns.oid = c.relnamespace WHERE c.relkind IN ('i', 'm')`;

/** A UNION ALL branch of the obj CTE. */
export const EXTENSION_DEPENDENCY_OBJECTS = `  UNION ALL
  SELECT 'extension dependency', 'of ' || x.class || ' ' || x.target || ' on ' || x.ext, x.parent,
    pg_catalog.json_build_array('ALTER ' || x.keyword || ' ' || x.target || ' DEPENDS ON EXTENSION ' || x.ext),
    pg_catalog.json_build_array('ALTER ' || x.keyword || ' ' || x.target || ' NO DEPENDS ON EXTENSION ' || x.ext),
    NULL, NULL, NULL, NULL
  FROM (${DEPENDS}
  ) AS x(keyword, class, target, parent, ext)
`;
