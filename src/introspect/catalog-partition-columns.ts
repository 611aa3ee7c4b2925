// The part of the catalog query (catalog-objects.ts's obj rows) that reads what a managed
// partition holds of its own on a column: a default other than its table's (SET DEFAULT, or DROP
// DEFAULT where its table has one) and a NOT NULL its table's column does not have. Each is an
// object of the partition, as ALTER TABLE prints it; its drop gives the column back its table's
// default (a partition made with PARTITION OF takes it) or takes the NOT NULL away. And the
// COMPRESSION of a partition's column other than its table's, or of a materialized view's column.
// And a view's column default (ALTER VIEW … ALTER COLUMN … SET DEFAULT).
import { attOptions, cls, qn } from './catalog-fragments.js';

const part = qn('r.nspname', 'r.relname');
const col = `pg_catalog.quote_ident(a.attname)`;
const alter = `'ALTER TABLE ' || ${part} || ' ALTER COLUMN ' || ${col}`;
/** A storage code as SET STORAGE names it. */
const storage = (code: string): string =>
  `CASE ${code} WHEN 'p' THEN 'PLAIN' WHEN 'e' THEN 'EXTERNAL' WHEN 'm' THEN 'MAIN' ELSE 'EXTENDED' END`;
/** The COMPRESSION of the attribute `a`, as SET COMPRESSION names it ('': the server's default). */
const method = (a: string): string =>
  `CASE ${a}.attcompression WHEN 'p' THEN 'pglz' WHEN 'l' THEN 'lz4' ELSE 'default' END`;

/**
 * A column's own SET STATISTICS, SET STORAGE (other than `storageDefault`, what the column has
 * without one) and SET (…) attribute options on the relations `from` joins and `where` keeps,
 * each a 'column setting' object (`public.m.c statistics`), its statements ALTER `head` … ALTER
 * COLUMN.
 */
const columnSettings = (head: string, from: string, storageDefault: string, where: string): string => {
  const alter = (a: string): string => `${head} || ${part} || ' ALTER COLUMN ' || ${col} || ${a}`;
  return `  UNION ALL
  SELECT 'column setting', ${part} || '.' || ${col} || ' ' || x.what, 'relation ' || ${part},
    pg_catalog.json_build_array(x.cre), pg_catalog.json_build_array(x.drp), NULL::pg_catalog.regclass, NULL::pg_catalog.oid, NULL, NULL
  FROM ${from}
  CROSS JOIN LATERAL (
    SELECT 'statistics', ${alter(`' SET STATISTICS ' || a.attstattarget::pg_catalog.text`)}, ${alter(`' SET STATISTICS -1'`)}
    WHERE a.attstattarget >= 0
    UNION ALL
    SELECT 'storage', ${alter(`' SET STORAGE ' || ${storage('a.attstorage')}`)}, ${alter(`' SET STORAGE ' || ${storage(storageDefault)}`)}
    WHERE a.attstorage <> ${storageDefault}
    UNION ALL
    SELECT 'options', ${alter(`' SET (' || pg_catalog.array_to_string(o.opts, ', ') || ')'`)},
      ${alter(`' RESET (' || (SELECT pg_catalog.string_agg(pg_catalog.split_part(u.o, '=', 1), ', ') FROM pg_catalog.unnest(o.opts) u(o)) || ')'`)}
    FROM (SELECT ${attOptions('a')} AS opts) o WHERE o.opts IS NOT NULL
  ) AS x(what, cre, drp)
  WHERE ${where}
`;
};

/** A materialized view's or foreign table's: SET STORAGE other than its type's. */
const MATVIEW_COLUMN_SETTINGS = columnSettings(
  `CASE r.relkind WHEN 'f' THEN 'ALTER FOREIGN TABLE ' ELSE 'ALTER MATERIALIZED VIEW ' END`,
  `anyrel r JOIN pg_catalog.pg_attribute a ON a.attrelid = r.oid AND a.attnum > 0 AND NOT a.attisdropped
  JOIN pg_catalog.pg_type t ON t.oid = a.atttypid`,
  't.typstorage',
  `r.relkind IN ('m', 'f')`,
);

/**
 * A partition's: SET STATISTICS and SET (…) (a partition is made with none: the plan sets its
 * table's with ONLY), and SET STORAGE other than its table's (which it is made with, and which
 * reaches it when its table's changes).
 */
const PARTITION_COLUMN_SETTINGS = columnSettings(
  `'ALTER TABLE ONLY '`,
  `anyrel r JOIN pg_catalog.pg_inherits pi ON pi.inhrelid = r.oid
  JOIN pg_catalog.pg_attribute a ON a.attrelid = r.oid AND a.attnum > 0 AND NOT a.attisdropped
  JOIN pg_catalog.pg_attribute pa ON pa.attrelid = pi.inhparent AND pa.attname = a.attname`,
  'pa.attstorage',
  'r.ispart',
);

/** UNION ALL branches of the obj CTE (over its anyrel). */
export const PARTITION_COLUMN_OBJECTS = `  UNION ALL
  -- A view's column default (what an INSERT through the view takes), as ALTER VIEW sets it.
  SELECT 'column default', ${part} || '.' || ${col}, 'relation ' || ${part},
    pg_catalog.json_build_array('ALTER VIEW ' || ${part} || ' ALTER COLUMN ' || ${col} || ' SET DEFAULT ' || pg_catalog.pg_get_expr(d.adbin, d.adrelid)),
    pg_catalog.json_build_array('ALTER VIEW ' || ${part} || ' ALTER COLUMN ' || ${col} || ' DROP DEFAULT'),
    ${cls('pg_attrdef')}, d.oid, NULL, NULL
  FROM anyrel r JOIN pg_catalog.pg_attrdef d ON d.adrelid = r.oid
  JOIN pg_catalog.pg_attribute a ON a.attrelid = r.oid AND a.attnum = d.adnum
  WHERE r.relkind = 'v'
  UNION ALL
  SELECT 'column default', ${part} || '.' || ${col}, 'relation ' || ${part},
    pg_catalog.json_build_array(${alter} || COALESCE(' SET DEFAULT ' || pg_catalog.pg_get_expr(d.adbin, d.adrelid), ' DROP DEFAULT')),
    pg_catalog.json_build_array(${alter} || COALESCE(' SET DEFAULT ' || pg_catalog.pg_get_expr(pd.adbin, pd.adrelid), ' DROP DEFAULT')),
    ${cls('pg_attrdef')}, d.oid, NULL, NULL
  FROM anyrel r JOIN pg_catalog.pg_inherits pi ON pi.inhrelid = r.oid
  JOIN pg_catalog.pg_attribute a ON a.attrelid = r.oid AND a.attnum > 0 AND NOT a.attisdropped
  JOIN pg_catalog.pg_attribute pa ON pa.attrelid = pi.inhparent AND pa.attname = a.attname
  LEFT JOIN pg_catalog.pg_attrdef d ON d.adrelid = r.oid AND d.adnum = a.attnum
  LEFT JOIN pg_catalog.pg_attrdef pd ON pd.adrelid = pi.inhparent AND pd.adnum = pa.attnum
  WHERE r.ispart AND (d.oid IS NOT NULL OR pd.oid IS NOT NULL) AND a.attgenerated = ''
    AND pg_catalog.pg_get_expr(d.adbin, d.adrelid) IS DISTINCT FROM pg_catalog.pg_get_expr(pd.adbin, pd.adrelid)
  UNION ALL
  SELECT 'not null', ${part} || '.' || ${col}, 'relation ' || ${part},
    pg_catalog.json_build_array(${alter} || ' SET NOT NULL'), pg_catalog.json_build_array(${alter} || ' DROP NOT NULL'),
    NULL::pg_catalog.regclass, NULL::pg_catalog.oid, NULL, NULL
  FROM anyrel r JOIN pg_catalog.pg_inherits pi ON pi.inhrelid = r.oid
  JOIN pg_catalog.pg_attribute a ON a.attrelid = r.oid AND a.attnum > 0 AND NOT a.attisdropped
  JOIN pg_catalog.pg_attribute pa ON pa.attrelid = pi.inhparent AND pa.attname = a.attname
  WHERE r.ispart AND a.attnotnull AND NOT pa.attnotnull
  UNION ALL
  SELECT 'column compression', ${part} || '.' || ${col}, 'relation ' || ${part},
    pg_catalog.json_build_array(${alter} || ' SET COMPRESSION ' || ${method('a')}),
    pg_catalog.json_build_array(${alter} || ' SET COMPRESSION ' || ${method('pa')}),
    NULL::pg_catalog.regclass, NULL::pg_catalog.oid, NULL, NULL
  FROM anyrel r JOIN pg_catalog.pg_inherits pi ON pi.inhrelid = r.oid
  JOIN pg_catalog.pg_attribute a ON a.attrelid = r.oid AND a.attnum > 0 AND NOT a.attisdropped
  JOIN pg_catalog.pg_attribute pa ON pa.attrelid = pi.inhparent AND pa.attname = a.attname
  WHERE r.ispart AND a.attcompression <> pa.attcompression
  UNION ALL
  SELECT 'column compression', ${part} || '.' || ${col}, 'relation ' || ${part},
    pg_catalog.json_build_array('ALTER MATERIALIZED VIEW ' || ${part} || ' ALTER COLUMN ' || ${col} || ' SET COMPRESSION ' || ${method('a')}),
    pg_catalog.json_build_array('ALTER MATERIALIZED VIEW ' || ${part} || ' ALTER COLUMN ' || ${col} || ' SET COMPRESSION default'),
    NULL::pg_catalog.regclass, NULL::pg_catalog.oid, NULL, NULL
  FROM anyrel r JOIN pg_catalog.pg_attribute a ON a.attrelid = r.oid AND a.attnum > 0 AND NOT a.attisdropped
  WHERE r.relkind = 'm' AND a.attcompression <> ''
${MATVIEW_COLUMN_SETTINGS}${PARTITION_COLUMN_SETTINGS}`;
