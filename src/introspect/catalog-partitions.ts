// The catalog query's partitions: every partition of the model's partitioned tables at every
// level (prt), and each table's partitions as JSON (parts), with the partition they are one of
// and their own keys.

/** The type of each partition key of a partitioned table (its operator class's input type), as JSON. */
export const PARTITION_KEY_TYPES = (oid: string): string =>
  `(SELECT pg_catalog.json_agg(pg_catalog.format_type(opc.opcintype, NULL) ORDER BY k.i)
        FROM pg_catalog.pg_partitioned_table pt, pg_catalog.unnest(pt.partclass::pg_catalog.oid[]) WITH ORDINALITY AS k(c, i)
        JOIN pg_catalog.pg_opclass opc ON opc.oid OPERATOR(pg_catalog.=) k.c
        WHERE pt.partrelid OPERATOR(pg_catalog.=) ${oid})`;

/** CTE `prt(oid, parent, root, level)` (after `rel`). */
export const PRT_CTE = `-- The partitions of the model's partitioned tables at every level (foreign ones too), each with
-- the table at its root and the table it is one of.
prt AS (
  SELECT t.relid::pg_catalog.oid AS oid, t.parentrelid::pg_catalog.oid AS parent, r.oid AS root, t.level
  FROM rel r, pg_catalog.pg_partition_tree(r.oid) t
  WHERE r.relkind = 'p' AND t.level OPERATOR(pg_catalog.>) 0
    AND (SELECT c.relkind FROM pg_catalog.pg_class c WHERE c.oid OPERATOR(pg_catalog.=) t.relid::pg_catalog.oid) IN ('r', 'p', 'f')
),`;

/** CTE `parts(inhparent, j)`: a partitioned table's partitions as JSON (after `prt`). */
export const PARTS_CTE = `-- Partitions at every level, in their parent's schema or another, under the table at their root:
-- a partition of a partition says which it is one of ('of'), and a partitioned one its own key.
parts AS (
  SELECT x.root AS inhparent, pg_catalog.json_agg(pg_catalog.json_build_object(
      'name', pc.relname, 'schema', pn.nspname, 'bound', pg_catalog.pg_get_expr(pc.relpartbound, pc.oid), 'am', pam.amname,
      'options', pc.reloptions, 'toastOptions', (SELECT t.reloptions FROM pg_catalog.pg_class t WHERE t.oid = pc.reltoastrelid),
      -- Its indexes that are its parent's (partition-index-names.ts): the parent index's name, and
      -- the index's column names and kind, from which PostgreSQL chose the name it would give it.
      'indexes', (SELECT pg_catalog.json_agg(pg_catalog.json_build_object(
          'name', ci.relname, 'parent', pi.relname,
          'columns', (SELECT pg_catalog.array_agg(ia.attname::pg_catalog.text ORDER BY ia.attnum) FROM pg_catalog.pg_attribute ia
                      WHERE ia.attrelid OPERATOR(pg_catalog.=) ci.oid AND ia.attnum OPERATOR(pg_catalog.>) 0),
          'label', CASE WHEN x.indisprimary THEN 'pkey'
                        WHEN k.contype OPERATOR(pg_catalog.=) 'x' THEN 'excl'
                        WHEN k.contype OPERATOR(pg_catalog.=) 'u' THEN 'key' ELSE 'idx' END)
          ORDER BY pi.relname)
        FROM pg_catalog.pg_index x
        JOIN pg_catalog.pg_class ci ON ci.oid OPERATOR(pg_catalog.=) x.indexrelid
        -- (the table's index at the root of its tree: a partition of a partition's copy is a copy of its parent's)
        JOIN pg_catalog.pg_class pi ON pi.oid OPERATOR(pg_catalog.=) pg_catalog.pg_partition_root(x.indexrelid)::pg_catalog.oid
        LEFT JOIN pg_catalog.pg_constraint k ON k.conindid OPERATOR(pg_catalog.=) x.indexrelid
          AND k.conrelid OPERATOR(pg_catalog.=) pc.oid AND k.contype OPERATOR(pg_catalog.=) ANY ('{p,u,x}'::pg_catalog."char"[])
        WHERE x.indrelid OPERATOR(pg_catalog.=) pc.oid AND x.indexrelid OPERATOR(pg_catalog.<>) pi.oid),
      'of', CASE WHEN x.parent OPERATOR(pg_catalog.<>) x.root THEN (SELECT pg_catalog.json_build_object('schema', qn.nspname, 'name', qc.relname)
        FROM pg_catalog.pg_class qc JOIN pg_catalog.pg_namespace qn ON qn.oid OPERATOR(pg_catalog.=) qc.relnamespace WHERE qc.oid OPERATOR(pg_catalog.=) x.parent) END,
      'partitionBy', CASE WHEN pc.relkind OPERATOR(pg_catalog.=) 'p'::pg_catalog."char" THEN pg_catalog.pg_get_partkeydef(pc.oid) END,
      'partitionKeyTypes', CASE WHEN pc.relkind OPERATOR(pg_catalog.=) 'p'::pg_catalog."char" THEN ${PARTITION_KEY_TYPES('pc.oid')} END,
      -- A foreign partition's server and options (CREATE FOREIGN TABLE … PARTITION OF … SERVER).
      'foreign', (SELECT pg_catalog.json_build_object('server', fs.srvname, 'options', ft.ftoptions)
        FROM pg_catalog.pg_foreign_table ft JOIN pg_catalog.pg_foreign_server fs ON fs.oid OPERATOR(pg_catalog.=) ft.ftserver
        WHERE ft.ftrelid OPERATOR(pg_catalog.=) pc.oid))
      ORDER BY x.level, pn.nspname, pc.relname) AS j
  FROM prt x
  JOIN pg_catalog.pg_class pc ON pc.oid = x.oid
  JOIN pg_catalog.pg_namespace pn ON pn.oid = pc.relnamespace
  LEFT JOIN pg_catalog.pg_am pam ON pam.oid = pc.relam
  GROUP BY x.root
),`;
