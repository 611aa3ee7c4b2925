// The catalog query's settings of relations that are objects defined by SQL of their own (UNION
// ALL branches of catalog-objects.ts's obj CTE), as `ALTER … SET …` statements:
// - 'tablespace': a table's, partition's or a key's index's tablespace other than the database's
//   (ALTER TABLE / INDEX … SET TABLESPACE); a partition's
//   index (attached to its table's) only where it is not its parent index's, which a new one takes.
//   Dropped, the relation goes back to the database's tablespace (or its parent index's).
//   (An index that is not a key's says TABLESPACE in its own CREATE INDEX, catalog-indexes.ts, and
//   a materialized view in its CREATE, catalog-objects.ts.)
// - 'sequence persistence': a sequence a column owns (serial, identity, OWNED BY) that is not
//   logged or unlogged as its table is (ALTER SEQUENCE … SET LOGGED / UNLOGGED). ALTER TABLE … SET
//   LOGGED / UNLOGGED sets its owned sequences too: dropped, the sequence gets its table's back.
import { cls, qn } from './catalog-fragments.js';

/** The database's own tablespace: where a relation made without TABLESPACE goes (reltablespace 0). */
const DATABASE_TABLESPACE = `(SELECT pg_catalog.quote_ident(dt.spcname) FROM pg_catalog.pg_database db
      JOIN pg_catalog.pg_tablespace dt ON dt.oid = db.dattablespace WHERE db.datname OPERATOR(pg_catalog.=) pg_catalog.current_database())`;

/** `ALTER <what> x SET TABLESPACE ` for a pg_class row's relkind. */
const alterRelation = (c: string, name: string): string =>
  `'ALTER ' || CASE WHEN ${c}.relkind IN ('i', 'I') THEN 'INDEX ' ELSE 'TABLE ' END || ${name} || ' SET TABLESPACE '`;

/** UNION ALL branches of the obj CTE (over its anyrel); each starts with UNION ALL. */
export const RELATION_SETTING_OBJECTS = `  UNION ALL
  -- A table's or partition's tablespace other than the database's (a materialized view says
  -- TABLESPACE in its CREATE: catalog-objects.ts).
  SELECT 'tablespace', ${qn('r.nspname', 'r.relname')}, 'relation ' || ${qn('r.nspname', 'r.relname')},
    pg_catalog.json_build_array(${alterRelation('c', qn('r.nspname', 'r.relname'))} || pg_catalog.quote_ident(ts.spcname)),
    pg_catalog.json_build_array(${alterRelation('c', qn('r.nspname', 'r.relname'))} || ${DATABASE_TABLESPACE}),
    NULL::pg_catalog.regclass, NULL::pg_catalog.oid, NULL, NULL
  FROM anyrel r JOIN pg_catalog.pg_class c ON c.oid = r.oid AND c.relkind IN ('r', 'p')
  JOIN pg_catalog.pg_tablespace ts ON ts.oid = c.reltablespace
  UNION ALL
  -- A key's index (PRIMARY KEY, UNIQUE) of a table or partitioned table, or an EXCLUDE
  -- constraint's, in another tablespace: the manifest (or ADD CONSTRAINT, which pg_get_constraintdef
  -- prints without it for EXCLUDE) declares the constraint, this its index's place. (A partition's
  -- own key says USING INDEX TABLESPACE in its ADD CONSTRAINT.)
  SELECT 'tablespace', ${qn('r.nspname', 'ic.relname')}, 'relation ' || ${qn('r.nspname', 'r.relname')},
    pg_catalog.json_build_array(${alterRelation('ic', qn('r.nspname', 'ic.relname'))} || pg_catalog.quote_ident(ts.spcname)),
    pg_catalog.json_build_array(${alterRelation('ic', qn('r.nspname', 'ic.relname'))} || ${DATABASE_TABLESPACE}),
    NULL::pg_catalog.regclass, NULL::pg_catalog.oid, NULL, NULL
  FROM anyrel r JOIN pg_catalog.pg_class c ON c.oid = r.oid AND c.relkind IN ('r', 'p')
  JOIN pg_catalog.pg_constraint kc ON kc.conrelid = r.oid AND ((kc.contype IN ('p', 'u') AND NOT r.ispart) OR kc.contype = 'x')
  JOIN pg_catalog.pg_class ic ON ic.oid = kc.conindid JOIN pg_catalog.pg_tablespace ts ON ts.oid = ic.reltablespace
  UNION ALL
  -- A managed partition's index attached to its table's index, in another tablespace than that one.
  SELECT 'tablespace', ${qn('r.nspname', 'ic.relname')}, 'relation ' || ${qn('r.nspname', 'r.relname')},
    pg_catalog.json_build_array(${alterRelation('ic', qn('r.nspname', 'ic.relname'))}
      || COALESCE((SELECT pg_catalog.quote_ident(t.spcname) FROM pg_catalog.pg_tablespace t WHERE t.oid = ic.reltablespace), ${DATABASE_TABLESPACE})),
    pg_catalog.json_build_array(${alterRelation('ic', qn('r.nspname', 'ic.relname'))}
      || COALESCE((SELECT pg_catalog.quote_ident(t.spcname) FROM pg_catalog.pg_tablespace t WHERE t.oid = pc.reltablespace), ${DATABASE_TABLESPACE})),
    NULL::pg_catalog.regclass, NULL::pg_catalog.oid, NULL, NULL
  FROM anyrel r JOIN pg_catalog.pg_index i ON i.indrelid = r.oid AND r.ispart
  JOIN pg_catalog.pg_class ic ON ic.oid = i.indexrelid
  JOIN pg_catalog.pg_inherits ih ON ih.inhrelid = i.indexrelid JOIN pg_catalog.pg_class pc ON pc.oid = ih.inhparent
  WHERE ic.reltablespace OPERATOR(pg_catalog.<>) pc.reltablespace
  UNION ALL
  -- A sequence a managed table's column owns, logged where its table is unlogged or the reverse.
  SELECT 'sequence persistence', ${qn('sn.nspname', 'sq.relname')}, 'relation ' || ${qn('r.nspname', 'r.relname')},
    pg_catalog.json_build_array('ALTER SEQUENCE ' || ${qn('sn.nspname', 'sq.relname')}
      || CASE WHEN sq.relpersistence = 'u' THEN ' SET UNLOGGED' ELSE ' SET LOGGED' END),
    pg_catalog.json_build_array('ALTER SEQUENCE ' || ${qn('sn.nspname', 'sq.relname')}
      || CASE WHEN c.relpersistence = 'u' THEN ' SET UNLOGGED' ELSE ' SET LOGGED' END),
    NULL::pg_catalog.regclass, NULL::pg_catalog.oid, NULL, NULL
  FROM anyrel r JOIN pg_catalog.pg_class c ON c.oid = r.oid AND c.relkind IN ('r', 'p')
  JOIN pg_catalog.pg_depend sd ON sd.refclassid = ${cls('pg_class')} AND sd.refobjid = r.oid
    AND sd.classid = ${cls('pg_class')} AND sd.deptype IN ('a', 'i')
  JOIN pg_catalog.pg_class sq ON sq.oid = sd.objid AND sq.relkind = 'S'
  JOIN pg_catalog.pg_namespace sn ON sn.oid = sq.relnamespace
  WHERE sq.relpersistence OPERATOR(pg_catalog.<>) c.relpersistence
`;
