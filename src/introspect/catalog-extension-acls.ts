// The part of the catalog query that reads, as a GRANT may name them, what an extension made
// (outside pg_catalog), the procedural languages, and pg_catalog's own relations, columns and
// functions whose ACL initdb set or someone changed: [type, name, owner, column, now, init], `init`
// the ACL the extension's script or initdb left (pg_init_privs; null: none) and `now` the ACL
// (null: not set; "init": the same), each as its aclitems' text (`grantee=rw*/grantor`, read by
// objects/privileges-catalog.ts: a fraction of aclexplode's rows, for some 200 of pg_catalog's).
// A column's row only where its ACL is set. objects/extension-privileges.ts compares them. Every
// operator's operands are of one of pg_catalog's own operators' exact types (catalog-fragments.ts).
import { argTypes, cls, qn } from './catalog-fragments.js';

const items = (acl: string): string => `pg_catalog.array_to_json((${acl})::pg_catalog.text[])`;
/** The ACL `acl` against the initial one `initial`: "init" when they are the same. */
const now = (acl: string, initial: string): string =>
  `CASE WHEN (${acl})::pg_catalog.text IS NOT DISTINCT FROM (${initial})::pg_catalog.text THEN '"init"'::pg_catalog.json ELSE ${items(acl)} END`;
const init = (catalog: string, oid: string, sub = '0'): string =>
  `(SELECT ip.initprivs FROM pg_catalog.pg_init_privs ip WHERE ip.classoid = ${cls(catalog)} AND ip.objoid = ${oid} AND ip.objsubid = ${sub})`;
// Sets computed once each (hashed subplans): probing pg_depend and pg_init_privs once per row of
// pg_class, pg_attribute and pg_proc cost more than the rest of this part at scale.
/** The members of extensions in catalog `catalog`. */
const members = (catalog: string): string =>
  `(SELECT d.objid FROM pg_catalog.pg_depend d WHERE d.classid = ${cls(catalog)} AND d.objsubid = 0 AND d.deptype = 'e')`;
/** The objects of catalog `catalog` with an initial ACL. */
const initialized = (catalog: string): string =>
  `(SELECT ip.objoid FROM pg_catalog.pg_init_privs ip WHERE ip.classoid = ${cls(catalog)} AND ip.objsubid = 0)`;
const owner = (oid: string): string => `pg_catalog.quote_ident(pg_catalog.pg_get_userbyid(${oid}))`;
const SYSTEM_NS = `(SELECT sn.oid FROM pg_catalog.pg_namespace sn WHERE sn.nspname = 'pg_catalog')`;
const row = (type: string, name: string, own: string, column: string, acl: string, initial: string): string =>
  `SELECT ${type}, ${name}, ${owner(own)}, ${column}, ${now(acl, initial)}, ${items(initial)}`;
/** An extension's member outside pg_catalog, or one of pg_catalog's own with an ACL or an initial one. */
const wanted = (ns: string, catalog: string, oid: string, acl: string): string =>
  `((${ns} NOT IN ${SYSTEM_NS} AND ${oid} IN ${members(catalog)}) OR (${ns} IN ${SYSTEM_NS} AND (${acl} IS NOT NULL OR ${oid} IN ${initialized(catalog)})))`;
/** The columns with an ACL or an initial one. */
const COLUMNS_SET = `(SELECT a2.attrelid, a2.attnum FROM pg_catalog.pg_attribute a2 WHERE a2.attacl IS NOT NULL
      UNION SELECT ip.objoid, ip.objsubid::pg_catalog.int2 FROM pg_catalog.pg_init_privs ip WHERE ip.classoid = ${cls('pg_class')} AND ip.objsubid <> 0)`;

/** ` AND` the ACL is not as it was left, when only those rows are wanted. */
const differs = (only: boolean, acl: string, initial: string): string =>
  only ? ` AND (${acl})::pg_catalog.text IS DISTINCT FROM (${initial})::pg_catalog.text` : '';

/** The rows (type, name, owner, col, now, init), a UNION ALL of SELECTs; `only`: those not as they were left. */
export const extensionAclRows = (only = false): string => `
    ${row(`CASE c.relkind WHEN 'S' THEN 'SEQUENCE' ELSE 'TABLE' END`, qn('xn.nspname', 'c.relname'), 'c.relowner', 'NULL::pg_catalog.text', 'c.relacl', init('pg_class', 'c.oid'))}
      FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace xn ON xn.oid = c.relnamespace
      WHERE ${wanted('c.relnamespace', 'pg_class', 'c.oid', 'c.relacl')}${differs(only, 'c.relacl', init('pg_class', 'c.oid'))}
    UNION ALL ${row(`'TABLE'`, qn('xn.nspname', 'c.relname'), 'c.relowner', 'a.attname::pg_catalog.text', 'a.attacl', init('pg_class', 'c.oid', 'a.attnum::pg_catalog.int4'))}
      FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_class c ON c.oid = a.attrelid JOIN pg_catalog.pg_namespace xn ON xn.oid = c.relnamespace
      WHERE a.attnum > 0::pg_catalog.int2 AND NOT a.attisdropped AND (a.attrelid, a.attnum) IN ${COLUMNS_SET}
        AND (c.relnamespace IN ${SYSTEM_NS} OR c.oid IN ${members('pg_class')})${differs(only, 'a.attacl', init('pg_class', 'c.oid', 'a.attnum::pg_catalog.int4'))}
    UNION ALL ${row(`CASE p.prokind WHEN 'p' THEN 'PROCEDURE' ELSE 'FUNCTION' END`, `${qn('xn.nspname', 'p.proname')} || '(' || ${argTypes('p')} || ')'`, 'p.proowner', 'NULL', 'p.proacl', init('pg_proc', 'p.oid'))}
      FROM pg_catalog.pg_proc p JOIN pg_catalog.pg_namespace xn ON xn.oid = p.pronamespace
      WHERE ${wanted('p.pronamespace', 'pg_proc', 'p.oid', 'p.proacl')}${differs(only, 'p.proacl', init('pg_proc', 'p.oid'))}
    UNION ALL ${row(`'TYPE'`, qn('xn.nspname', 't.typname'), 't.typowner', 'NULL', 't.typacl', init('pg_type', 't.oid'))}
      FROM pg_catalog.pg_type t JOIN pg_catalog.pg_namespace xn ON xn.oid = t.typnamespace
      WHERE t.typnamespace NOT IN ${SYSTEM_NS} AND t.oid IN ${members('pg_type')}${differs(only, 't.typacl', init('pg_type', 't.oid'))}
    UNION ALL ${row(`'SCHEMA'`, 'pg_catalog.quote_ident(n.nspname)', 'n.nspowner', 'NULL', 'n.nspacl', init('pg_namespace', 'n.oid'))}
      FROM pg_catalog.pg_namespace n WHERE n.oid IN ${members('pg_namespace')}${differs(only, 'n.nspacl', init('pg_namespace', 'n.oid'))}
    UNION ALL ${row(`'FOREIGN DATA WRAPPER'`, 'pg_catalog.quote_ident(w.fdwname)', 'w.fdwowner', 'NULL', 'w.fdwacl', init('pg_foreign_data_wrapper', 'w.oid'))}
      FROM pg_catalog.pg_foreign_data_wrapper w WHERE w.oid IN ${members('pg_foreign_data_wrapper')}${differs(only, 'w.fdwacl', init('pg_foreign_data_wrapper', 'w.oid'))}
    -- Every language: plpgsql is an extension's, sql and the others initdb's.
    UNION ALL ${row(`'LANGUAGE'`, 'pg_catalog.quote_ident(l.lanname)', 'l.lanowner', 'NULL', 'l.lanacl', init('pg_language', 'l.oid'))}
      FROM pg_catalog.pg_language l WHERE true${differs(only, 'l.lanacl', init('pg_language', 'l.oid'))}`;

/** The `extensionAcls` member of the catalog document. */
export const EXTENSION_ACLS_JSON = `
  'extensionAcls', (SELECT COALESCE(pg_catalog.json_agg(pg_catalog.json_build_array(e.type, e.name, e.owner, e.col, e.now, e.init) ORDER BY e.type, e.name, e.col NULLS FIRST), '[]') FROM (
${extensionAclRows()}
  ) AS e(type, name, owner, col, now, init))`;
