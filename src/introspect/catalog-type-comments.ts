// Comments of a type's parts, read beside the other comments (catalog-more-objects.ts splices them
// in): on a composite type's column (`COMMENT ON COLUMN app.pair.a`, which names it as a relation's)
// and on a domain's constraint (`COMMENT ON CONSTRAINT positive ON DOMAIN app.posint`); each goes
// with its type. pg_dump dumps both; they were dropped without a word before.
import { cls, notExt, qn } from './catalog-fragments.js';

export const TYPE_PART_COMMENTS = `    UNION ALL
    SELECT 'COLUMN', ${qn('ns.nspname', 'c.relname')} || '.' || pg_catalog.quote_ident(a.attname), 'type ' || ${qn('ns.nspname', 'c.relname')}, d.description
    FROM pg_catalog.pg_description d JOIN pg_catalog.pg_class c ON c.oid = d.objoid AND d.classoid = ${cls('pg_class')} AND c.relkind = 'c'
    JOIN ns ON ns.oid = c.relnamespace
    JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid AND a.attnum::pg_catalog.int4 = d.objsubid AND NOT a.attisdropped
    WHERE d.objsubid > 0 AND ${notExt('pg_catalog.pg_type', 'c.reltype')}
    UNION ALL
    SELECT 'CONSTRAINT', pg_catalog.quote_ident(co.conname) || ' ON DOMAIN ' || ${qn('ns.nspname', 't.typname')}, 'type ' || ${qn('ns.nspname', 't.typname')}, d.description
    FROM pg_catalog.pg_description d JOIN pg_catalog.pg_constraint co ON co.oid = d.objoid AND d.classoid = ${cls('pg_constraint')}
    JOIN pg_catalog.pg_type t ON t.oid = co.contypid JOIN ns ON ns.oid = t.typnamespace
    WHERE ${notExt('pg_catalog.pg_type', 't.oid')}
`;
