// The parts of the catalog query (catalog-more-objects.ts) that read operator families and
// operator classes as objects defined by SQL, written as pg_dump writes them (PostgreSQL has no
// pg_get_opclassdef): a family is CREATE OPERATOR FAMILY, then ALTER OPERATOR FAMILY … ADD with
// its loose members (those pg_depend ties to the family, not to a class: a hash class's support
// function, say); a class is CREATE OPERATOR CLASS … FOR TYPE … USING … FAMILY … AS with STORAGE,
// its operators by strategy and its functions by number. Both are named with their method, as
// DROP names them: `public.my_ops USING hash` (objects/opclass.ts reads the same from a file).
import { cls, notExt, qn, USER_NS } from './catalog-fragments.js';

export const FAMILY_NAME = `${qn('ns.nspname', 'f.opfname')} || ' USING ' || pg_catalog.quote_ident(am.amname)`;
const FAMILY_CREATE = `'CREATE OPERATOR FAMILY ' || ${FAMILY_NAME}`;
export const CLASS_NAME = `${qn('ns.nspname', 'c.opcname')} || ' USING ' || pg_catalog.quote_ident(am.amname)`;

/** A type as format_type prints it (search_path = public: a type of public unqualified). */
const type = (oid: string): string => `pg_catalog.format_type(${oid}, NULL)`;

/** An operator member `ao` (a pg_amop row): `OPERATOR n op(left,right)` [FOR ORDER BY family]. */
const OPERATOR_ITEM = `'OPERATOR ' || ao.amopstrategy::pg_catalog.text || ' '
    || CASE WHEN ons.nspname = 'pg_catalog' THEN op.oprname::pg_catalog.text ELSE pg_catalog.quote_ident(ons.nspname) || '.' || op.oprname::pg_catalog.text END
    || '(' || COALESCE(${type('NULLIF(op.oprleft, 0::pg_catalog.oid)')}, 'NONE') || ',' || ${type('op.oprright')} || ')'
    || COALESCE(' FOR ORDER BY ' || (SELECT ${qn('sn.nspname', 'sf.opfname')} FROM pg_catalog.pg_opfamily sf
         JOIN pg_catalog.pg_namespace sn ON sn.oid = sf.opfnamespace WHERE sf.oid = NULLIF(ao.amopsortfamily, 0::pg_catalog.oid)), '')`;

/** A function member `ap` (a pg_amproc row): `FUNCTION n (left, right) schema.f(args)`. */
const FUNCTION_ITEM = `'FUNCTION ' || ap.amprocnum::pg_catalog.text || ' (' || ${type('ap.amproclefttype')} || ', ' || ${type('ap.amprocrighttype')} || ') '
    || ${qn('pn.nspname', 'p.proname')} || '(' || pg_catalog.oidvectortypes(p.proargtypes) || ')'`;

/** The members pg_depend ties to `refclass` `refoid` (a class's, or a family's loose ones), as items. */
const members = (refclass: string, refoid: string): string => `ARRAY(
    SELECT x.item FROM (
      SELECT 1 AS k, ao.amopstrategy AS n, ${type('ao.amoplefttype')} || ${type('ao.amoprighttype')} AS t, ${OPERATOR_ITEM} AS item
      FROM pg_catalog.pg_amop ao JOIN pg_catalog.pg_depend d ON d.classid = ${cls('pg_amop')} AND d.objid = ao.oid
      JOIN pg_catalog.pg_operator op ON op.oid = ao.amopopr JOIN pg_catalog.pg_namespace ons ON ons.oid = op.oprnamespace
      WHERE d.refclassid = ${cls(refclass)} AND d.refobjid = ${refoid}
      UNION ALL
      SELECT 2, ap.amprocnum, ${type('ap.amproclefttype')} || ${type('ap.amprocrighttype')}, ${FUNCTION_ITEM}
      FROM pg_catalog.pg_amproc ap JOIN pg_catalog.pg_depend d ON d.classid = ${cls('pg_amproc')} AND d.objid = ap.oid
      JOIN pg_catalog.pg_proc p ON p.oid = ap.amproc::pg_catalog.oid JOIN pg_catalog.pg_namespace pn ON pn.oid = p.pronamespace
      WHERE d.refclassid = ${cls(refclass)} AND d.refobjid = ${refoid}
    ) x ORDER BY x.k, x.n, x.t)`;

/** UNION ALL branches of the obj CTE. */
export const OPCLASS_OBJECTS = `  UNION ALL
  SELECT 'operator family', ${FAMILY_NAME}, NULL,
    CASE WHEN pg_catalog.cardinality(m.items) > 0
      THEN pg_catalog.json_build_array(${FAMILY_CREATE}, 'ALTER OPERATOR FAMILY ' || ${FAMILY_NAME} || ' ADD' || E'\\n    '
        || pg_catalog.array_to_string(m.items, ',' || E'\\n    '))
      ELSE pg_catalog.json_build_array(${FAMILY_CREATE}) END,
    pg_catalog.json_build_array('DROP OPERATOR FAMILY ' || ${FAMILY_NAME}),
    ${cls('pg_opfamily')}, f.oid, NULL, NULL
  FROM pg_catalog.pg_opfamily f JOIN ns ON ns.oid = f.opfnamespace JOIN pg_catalog.pg_am am ON am.oid = f.opfmethod
  CROSS JOIN LATERAL (SELECT ${members('pg_opfamily', 'f.oid')} AS items) m
  WHERE ${notExt('pg_catalog.pg_opfamily', 'f.oid')}
  UNION ALL
  SELECT 'operator class', ${CLASS_NAME}, NULL,
    pg_catalog.json_build_array('CREATE OPERATOR CLASS ' || ${qn('ns.nspname', 'c.opcname')} || E'\\n    '
      || CASE WHEN c.opcdefault THEN 'DEFAULT ' ELSE '' END || 'FOR TYPE ' || ${type('c.opcintype')}
      || ' USING ' || pg_catalog.quote_ident(am.amname) || ' FAMILY ' || ${qn('fn.nspname', 'f.opfname')} || ' AS' || E'\\n    '
      -- A class whose members are all its family's loose ones has STORAGE of its type, as pg_dump writes it.
      || COALESCE(NULLIF(pg_catalog.array_to_string(pg_catalog.array_cat(ARRAY['STORAGE ' || ${type('NULLIF(c.opckeytype, 0::pg_catalog.oid)')}],
           ${members('pg_opclass', 'c.oid')}), ',' || E'\\n    '), ''), 'STORAGE ' || ${type('c.opcintype')})),
    pg_catalog.json_build_array('DROP OPERATOR CLASS ' || ${CLASS_NAME}),
    ${cls('pg_opclass')}, c.oid, NULL, NULL
  FROM pg_catalog.pg_opclass c JOIN ns ON ns.oid = c.opcnamespace JOIN pg_catalog.pg_am am ON am.oid = c.opcmethod
  JOIN pg_catalog.pg_opfamily f ON f.oid = c.opcfamily JOIN pg_catalog.pg_namespace fn ON fn.oid = f.opfnamespace
  WHERE ${notExt('pg_catalog.pg_opclass', 'c.oid')}
`;

/** UNION ALL branches of the objdeps CTE: what uses a class or a family (an index, a class, a partition key). */
export const OPCLASS_DEPS = `
    UNION ALL
    SELECT d.classid, d.objid, 'operator class ' || ${CLASS_NAME} FROM objdep d
      JOIN pg_catalog.pg_opclass c ON c.oid = d.refobjid JOIN pg_catalog.pg_namespace ns ON ns.oid = c.opcnamespace AND c.opcnamespace = ANY (${USER_NS})
      JOIN pg_catalog.pg_am am ON am.oid = c.opcmethod
      WHERE d.refclassid = ${cls('pg_opclass')}
    UNION ALL
    SELECT d.classid, d.objid, 'operator family ' || ${FAMILY_NAME} FROM objdep d
      JOIN pg_catalog.pg_opfamily f ON f.oid = d.refobjid JOIN pg_catalog.pg_namespace ns ON ns.oid = f.opfnamespace AND f.opfnamespace = ANY (${USER_NS})
      JOIN pg_catalog.pg_am am ON am.oid = f.opfmethod
      WHERE d.refclassid = ${cls('pg_opfamily')}`;

/** A UNION ALL branch of the comments (keyword, target, parent, description). */
export const OPCLASS_COMMENTS = `    UNION ALL
    SELECT 'OPERATOR FAMILY', ${FAMILY_NAME}, 'operator family ' || ${FAMILY_NAME}, d.description
    FROM pg_catalog.pg_description d JOIN pg_catalog.pg_opfamily f ON f.oid = d.objoid AND d.classoid = ${cls('pg_opfamily')}
    JOIN ns ON ns.oid = f.opfnamespace JOIN pg_catalog.pg_am am ON am.oid = f.opfmethod
    UNION ALL
    SELECT 'OPERATOR CLASS', ${CLASS_NAME}, 'operator class ' || ${CLASS_NAME}, d.description
    FROM pg_catalog.pg_description d JOIN pg_catalog.pg_opclass c ON c.oid = d.objoid AND d.classoid = ${cls('pg_opclass')}
    JOIN ns ON ns.oid = c.opcnamespace JOIN pg_catalog.pg_am am ON am.oid = c.opcmethod
`;
