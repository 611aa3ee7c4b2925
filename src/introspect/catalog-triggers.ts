// The catalog query's triggers as objects defined by SQL (a UNION ALL branch of catalog-objects.ts's
// obj CTE): a table's or a managed partition's own triggers (not a partition's clones of its
// table's), each as CREATE TRIGGER, its state when not enabled, and ALTER TRIGGER … DEPENDS ON
// EXTENSION for each extension it depends on, as pg_dump writes them.
import { cls, qn } from './catalog-fragments.js';

/** ALTER TABLE's words for a trigger's state (pg_trigger.tgenabled). */
const state = (col: string): string =>
  `CASE ${col} WHEN 'D' THEN ' DISABLE' WHEN 'R' THEN ' ENABLE REPLICA' WHEN 'A' THEN ' ENABLE ALWAYS' ELSE ' ENABLE' END`;

/** A branch of the obj CTE, after one that ends with UNION ALL; ends with a newline. */
export const TRIGGER_OBJECTS = `  SELECT 'trigger', ${qn('r.nspname', 'r.relname')} || '.' || pg_catalog.quote_ident(tg.tgname), 'relation ' || ${qn('r.nspname', 'r.relname')},
    -- CREATE TRIGGER, its state when not enabled, and ALTER TRIGGER … DEPENDS ON EXTENSION for each
    -- extension it depends on (dropped with the extension), as pg_dump writes them.
    (SELECT pg_catalog.json_agg(x.s ORDER BY x.o, x.s) FROM (
       SELECT 0, pg_catalog.pg_get_triggerdef(tg.oid)
       UNION ALL SELECT 1, 'ALTER TABLE ' || ${qn('r.nspname', 'r.relname')}
         || CASE tg.tgenabled WHEN 'D' THEN ' DISABLE' WHEN 'R' THEN ' ENABLE REPLICA' ELSE ' ENABLE ALWAYS' END || ' TRIGGER ' || pg_catalog.quote_ident(tg.tgname)
         WHERE tg.tgenabled OPERATOR(pg_catalog.<>) 'O'::pg_catalog."char"
       UNION ALL SELECT 2, 'ALTER TRIGGER ' || pg_catalog.quote_ident(tg.tgname) || ' ON ' || ${qn('r.nspname', 'r.relname')}
         || ' DEPENDS ON EXTENSION ' || pg_catalog.quote_ident(e.extname)
         FROM pg_catalog.pg_depend d JOIN pg_catalog.pg_extension e ON e.oid = d.refobjid AND d.refclassid = ${cls('pg_extension')}
         WHERE d.classid = ${cls('pg_trigger')} AND d.objid = tg.oid AND d.deptype = 'x') AS x(o, s)),
    pg_catalog.json_build_array('DROP TRIGGER ' || pg_catalog.quote_ident(tg.tgname) || ' ON ' || ${qn('r.nspname', 'r.relname')}),
    ${cls('pg_trigger')}, tg.oid, NULL, NULL
  FROM pg_catalog.pg_trigger tg JOIN anyrel r ON r.oid = tg.tgrelid WHERE NOT tg.tgisinternal AND tg.tgparentid = 0::pg_catalog.oid
  UNION ALL
  -- A partition's clone of its table's trigger in another state than the table's: ALTER TABLE, as
  -- pg_dump writes it; dropped, it gets the table's state back.
  SELECT 'trigger state', ${qn('r.nspname', 'r.relname')} || '.' || pg_catalog.quote_ident(tg.tgname), 'relation ' || ${qn('r.nspname', 'r.relname')},
    pg_catalog.json_build_array('ALTER TABLE ' || ${qn('r.nspname', 'r.relname')} || ${state('tg.tgenabled')} || ' TRIGGER ' || pg_catalog.quote_ident(tg.tgname)),
    pg_catalog.json_build_array('ALTER TABLE ' || ${qn('r.nspname', 'r.relname')} || ${state('pt.tgenabled')} || ' TRIGGER ' || pg_catalog.quote_ident(tg.tgname)),
    ${cls('pg_trigger')}, tg.oid, NULL, NULL
  FROM pg_catalog.pg_trigger tg JOIN anyrel r ON r.oid = tg.tgrelid JOIN pg_catalog.pg_trigger pt ON pt.oid = tg.tgparentid
  WHERE NOT tg.tgisinternal AND tg.tgenabled OPERATOR(pg_catalog.<>) pt.tgenabled
`;

/** A UNION ALL branch of objdeps: a partition's trigger state goes with its table's trigger (made again with it). */
export const TRIGGER_STATE_DEPS = `
    UNION ALL
    SELECT o.depclass, o.depobj, 'trigger ' || ${qn('pn.nspname', 'pc.relname')} || '.' || pg_catalog.quote_ident(pt.tgname) FROM obj o
      JOIN pg_catalog.pg_trigger tg ON o.depclass = ${cls('pg_trigger')} AND tg.oid = o.depobj AND o.kind = 'trigger state'
      JOIN pg_catalog.pg_trigger pt ON pt.oid = tg.tgparentid JOIN pg_catalog.pg_class pc ON pc.oid = pt.tgrelid
      JOIN pg_catalog.pg_namespace pn ON pn.oid = pc.relnamespace`;
