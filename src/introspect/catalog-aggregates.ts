// The part of the catalog query (catalog-objects.ts's obj rows) that reads aggregates as objects
// defined by SQL: plain, ordered-set and hypothetical aggregates, rebuilt from pg_aggregate
// (PostgreSQL has no pg_get_aggregatedef; the options are those pg_dump writes). Function and
// type names print as search_path = public finds them.
import { argTypes, cls, notExt, qn } from './catalog-fragments.js';

/** The aggregates managed as objects (p: pg_proc, ag: pg_aggregate): all of them (plain, ordered-set, hypothetical; of *, VARIADIC). */
export const MANAGED_AGGREGATE = `p.prokind = 'a'`;

/**
 * An aggregate's name as objects/aggregate.ts spells it: its argument types, direct and aggregated
 * ones together, without names or modes (`public.agg(integer)`, `public.cnt()`).
 */
export const AGGREGATE_NAME = `${qn('ns.nspname', 'p.proname')} || '(' || ${argTypes('p')} || ')'`;
/** Its arguments as CREATE / DROP / COMMENT write them: `*` for none. */
const args = (fn: string): string =>
  `CASE WHEN p.pronargs = 0::pg_catalog.int2 THEN '*' ELSE pg_catalog.${fn}(p.oid) END`;

/** A UNION ALL branch of the obj CTE. */
export const AGGREGATE_OBJECTS = `
  UNION ALL
  -- An aggregate, rebuilt from pg_aggregate (PostgreSQL has no
  -- pg_get_aggregatedef; the options pg_dump writes). Names print as search_path = public finds them.
  SELECT 'aggregate', ${AGGREGATE_NAME}, NULL,
    pg_catalog.json_build_array('CREATE AGGREGATE ' || ${qn('ns.nspname', 'p.proname')} || '(' || ${args('pg_get_function_arguments')} || ') ('
      || 'SFUNC = ' || ag.aggtransfn::pg_catalog.regproc::pg_catalog.text || ', STYPE = ' || pg_catalog.format_type(ag.aggtranstype, NULL)
      || CASE WHEN ag.aggtransspace <> 0 THEN ', SSPACE = ' || ag.aggtransspace::pg_catalog.text ELSE '' END
      || CASE WHEN ag.aggfinalfn::pg_catalog.oid <> 0::pg_catalog.oid THEN ', FINALFUNC = ' || ag.aggfinalfn::pg_catalog.regproc::pg_catalog.text ELSE '' END
      || CASE WHEN ag.aggfinalextra THEN ', FINALFUNC_EXTRA' ELSE '' END
      || CASE WHEN ag.aggfinalfn::pg_catalog.oid <> 0::pg_catalog.oid AND ag.aggfinalmodify <> (CASE ag.aggkind WHEN 'n' THEN 'r' ELSE 'w' END)::pg_catalog."char" THEN ', FINALFUNC_MODIFY = ' || CASE ag.aggfinalmodify WHEN 's' THEN 'SHAREABLE' ELSE 'READ_WRITE' END ELSE '' END
      || CASE WHEN ag.aggcombinefn::pg_catalog.oid <> 0::pg_catalog.oid THEN ', COMBINEFUNC = ' || ag.aggcombinefn::pg_catalog.regproc::pg_catalog.text ELSE '' END
      || CASE WHEN ag.aggserialfn::pg_catalog.oid <> 0::pg_catalog.oid THEN ', SERIALFUNC = ' || ag.aggserialfn::pg_catalog.regproc::pg_catalog.text ELSE '' END
      || CASE WHEN ag.aggdeserialfn::pg_catalog.oid <> 0::pg_catalog.oid THEN ', DESERIALFUNC = ' || ag.aggdeserialfn::pg_catalog.regproc::pg_catalog.text ELSE '' END
      || COALESCE(', INITCOND = ' || pg_catalog.quote_literal(ag.agginitval), '')
      || CASE WHEN ag.aggmtransfn::pg_catalog.oid <> 0::pg_catalog.oid THEN ', MSFUNC = ' || ag.aggmtransfn::pg_catalog.regproc::pg_catalog.text
           || ', MINVFUNC = ' || ag.aggminvtransfn::pg_catalog.regproc::pg_catalog.text || ', MSTYPE = ' || pg_catalog.format_type(ag.aggmtranstype, NULL)
           || CASE WHEN ag.aggmtransspace <> 0 THEN ', MSSPACE = ' || ag.aggmtransspace::pg_catalog.text ELSE '' END
           || CASE WHEN ag.aggmfinalfn::pg_catalog.oid <> 0::pg_catalog.oid THEN ', MFINALFUNC = ' || ag.aggmfinalfn::pg_catalog.regproc::pg_catalog.text ELSE '' END
           || CASE WHEN ag.aggmfinalextra THEN ', MFINALFUNC_EXTRA' ELSE '' END
           || CASE WHEN ag.aggmfinalfn::pg_catalog.oid <> 0::pg_catalog.oid AND ag.aggmfinalmodify <> 'r' THEN ', MFINALFUNC_MODIFY = ' || CASE ag.aggmfinalmodify WHEN 's' THEN 'SHAREABLE' ELSE 'READ_WRITE' END ELSE '' END
           || COALESCE(', MINITCOND = ' || pg_catalog.quote_literal(ag.aggminitval), '') ELSE '' END
      || CASE WHEN ag.aggsortop <> 0::pg_catalog.oid THEN ', SORTOP = OPERATOR(' || so.oprnamespace::pg_catalog.regnamespace::pg_catalog.text || '.' || so.oprname::pg_catalog.text || ')' ELSE '' END
      || CASE p.proparallel WHEN 's' THEN ', PARALLEL = SAFE' WHEN 'r' THEN ', PARALLEL = RESTRICTED' ELSE '' END
      || CASE WHEN ag.aggkind = 'h' THEN ', HYPOTHETICAL' ELSE '' END
      || ')'),
    pg_catalog.json_build_array('DROP AGGREGATE ' || ${qn('ns.nspname', 'p.proname')} || '(' || ${args('pg_get_function_identity_arguments')} || ')'),
    ${cls('pg_proc')}, p.oid, NULL, NULL
  FROM pg_catalog.pg_proc p JOIN ns ON ns.oid = p.pronamespace JOIN pg_catalog.pg_aggregate ag ON ag.aggfnoid::pg_catalog.oid = p.oid
  LEFT JOIN pg_catalog.pg_operator so ON so.oid = ag.aggsortop
  WHERE ${MANAGED_AGGREGATE} AND ${notExt('pg_catalog.pg_proc', 'p.oid')}
`;
