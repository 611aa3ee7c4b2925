// The parts of the catalog query (catalog-more-objects.ts) that read publications (CREATE
// PUBLICATION) as objects defined by SQL, written as pg_dump writes them: CREATE PUBLICATION with
// what it publishes, then ALTER PUBLICATION … ADD TABLE ONLY for each table (its column list and
// row filter) and ADD TABLES IN SCHEMA for each schema. Citus propagates a publication of
// distributed tables to the workers.
import { cls, qn } from './catalog-fragments.js';

const NAME = 'pg_catalog.quote_ident(p.pubname)';
const PUBLISH = `pg_catalog.array_to_string(pg_catalog.array_remove(ARRAY[CASE WHEN p.pubinsert THEN 'insert' END,
        CASE WHEN p.pubupdate THEN 'update' END, CASE WHEN p.pubdelete THEN 'delete' END,
        CASE WHEN p.pubtruncate THEN 'truncate' END]::pg_catalog.text[], NULL), ', ')`;

/** A UNION ALL branch of the obj CTE. */
export const PUBLICATION_OBJECTS = `  UNION ALL
  SELECT 'publication', ${NAME}, NULL,
    (SELECT pg_catalog.json_agg(st.s ORDER BY st.o, st.n) FROM (
      SELECT 0, '', 'CREATE PUBLICATION ' || ${NAME} || CASE WHEN p.puballtables THEN ' FOR ALL TABLES' ELSE '' END
        || ' WITH (publish = ' || pg_catalog.quote_literal(${PUBLISH})
        || CASE WHEN p.pubviaroot THEN ', publish_via_partition_root = true' ELSE '' END || ')'
      UNION ALL
      SELECT 1, ${qn('rn.nspname', 'rc.relname')}, 'ALTER PUBLICATION ' || ${NAME} || ' ADD TABLE ONLY ' || ${qn('rn.nspname', 'rc.relname')}
        || COALESCE(' (' || (SELECT pg_catalog.string_agg(pg_catalog.quote_ident(a.attname), ', ' ORDER BY a.attnum)
             FROM pg_catalog.pg_attribute a WHERE a.attrelid = pr.prrelid AND a.attnum = ANY (pr.prattrs::pg_catalog.int2[])) || ')', '')
        || COALESCE(' WHERE (' || pg_catalog.pg_get_expr(pr.prqual, pr.prrelid) || ')', '')
      FROM pg_catalog.pg_publication_rel pr JOIN pg_catalog.pg_class rc ON rc.oid = pr.prrelid
      JOIN pg_catalog.pg_namespace rn ON rn.oid = rc.relnamespace WHERE pr.prpubid = p.oid
      UNION ALL
      SELECT 2, sn.nspname::pg_catalog.text, 'ALTER PUBLICATION ' || ${NAME} || ' ADD TABLES IN SCHEMA ' || pg_catalog.quote_ident(sn.nspname)
      FROM pg_catalog.pg_publication_namespace pn JOIN pg_catalog.pg_namespace sn ON sn.oid = pn.pnnspid WHERE pn.pnpubid = p.oid
    ) AS st(o, n, s)),
    pg_catalog.json_build_array('DROP PUBLICATION ' || ${NAME}),
    ${cls('pg_publication')}, p.oid, NULL, NULL
  FROM pg_catalog.pg_publication p
`;

/** A UNION ALL branch of the comments (keyword, target, parent, description). */
export const PUBLICATION_COMMENTS = `    UNION ALL
    SELECT 'PUBLICATION', ${NAME}, 'publication ' || ${NAME}, d.description
    FROM pg_catalog.pg_description d JOIN pg_catalog.pg_publication p ON p.oid = d.objoid AND d.classoid = ${cls('pg_publication')}
`;
