// The parts of the catalog query (catalog-objects.ts's obj rows and comments) that read extended
// statistics objects (CREATE STATISTICS) as objects defined by SQL: as pg_get_statisticsobjdef
// prints them, with their statistics target when it is set, on the tables and materialized views
// the model holds (anyrel). Citus creates them on the shards too; the shards' own are not read.
import { cls, notExt, qn, USER_NS } from './catalog-fragments.js';

/** Whether a relation is an extension's (a member of it). */
export const EXTENSION_RELATION = (oid: string): string => `EXISTS (SELECT 1 FROM pg_catalog.pg_depend xd
    WHERE xd.classid = ${cls('pg_class')} AND xd.objid = ${oid} AND xd.refclassid = ${cls('pg_extension')} AND xd.deptype = 'e')`;

/** A UNION ALL branch of the obj CTE (over its anyrel). */
export const STATISTICS_OBJECTS = `  UNION ALL
  -- Extended statistics (CREATE STATISTICS), and ALTER STATISTICS … SET STATISTICS when it is set.
  -- One a user made on an extension's table (the table is the extension's, the statistics not) is
  -- of no declared table: compared whether declared or not (unmanaged, pruned with prune).
  SELECT 'statistics object', ${qn('sn.nspname', 's.stxname')}, 'relation ' || ${qn('r.nspname', 'r.relname')},
    CASE WHEN s.stxstattarget >= 0
      THEN pg_catalog.json_build_array(pg_catalog.pg_get_statisticsobjdef(s.oid),
        'ALTER STATISTICS ' || ${qn('sn.nspname', 's.stxname')} || ' SET STATISTICS ' || s.stxstattarget::pg_catalog.text)
      ELSE pg_catalog.json_build_array(pg_catalog.pg_get_statisticsobjdef(s.oid)) END,
    pg_catalog.json_build_array('DROP STATISTICS ' || ${qn('sn.nspname', 's.stxname')}),
    ${cls('pg_statistic_ext')}, s.oid, NULL, NULL
  FROM pg_catalog.pg_statistic_ext s JOIN pg_catalog.pg_namespace sn ON sn.oid = s.stxnamespace
  LEFT JOIN anyrel r ON r.oid = s.stxrelid
  WHERE r.oid IS NOT NULL OR (sn.oid = ANY (${USER_NS}) AND ${EXTENSION_RELATION('s.stxrelid')}
    AND ${notExt('pg_catalog.pg_statistic_ext', 's.oid')})
`;

/** A UNION ALL branch of the comments (keyword, target, parent, description). */
export const STATISTICS_COMMENTS = `    UNION ALL
    SELECT 'STATISTICS', ${qn('sn.nspname', 's.stxname')}, 'statistics ' || ${qn('sn.nspname', 's.stxname')}, d.description
    FROM pg_catalog.pg_description d JOIN pg_catalog.pg_statistic_ext s ON s.oid = d.objoid AND d.classoid = ${cls('pg_statistic_ext')}
    JOIN pg_catalog.pg_namespace sn ON sn.oid = s.stxnamespace
    WHERE EXISTS (SELECT 1 FROM anyrel r WHERE r.oid = s.stxrelid) OR ${EXTENSION_RELATION('s.stxrelid')}
`;
