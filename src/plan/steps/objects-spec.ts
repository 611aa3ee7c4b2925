// Step records of objects defined by SQL (views, types, triggers, policies, grants, comments…):
// the statements are the user's (desired) or PostgreSQL's own (actual).
import { OBJECT_SPEC } from '../../model/object-spec.js';
import type { ObjectKind } from '../../model/types.js';
import { tryParseStatements, type Node } from '../../sql/pg-parse.js';
import { quoteIdent } from '../../sql/quote.js';
import { PLAN_SEARCH_PATH, pinLocal } from '../pinned-settings.js';
import { publicGrants, statementHazards } from './statement-hazards.js';
import type { Phase } from './steps.js';
import { PLAIN, type StepSpecs } from './spec-record.js';
import { oneShardAtATime } from './sql-parts.js';
import { outsideTransaction } from '../../objects/subscription.js';

/** An event trigger last: it fires on every DDL statement after it, the plan's own too. */
const createPhase = (s: { readonly objectKind: ObjectKind }): Phase =>
  s.objectKind === 'event trigger' ? 'event_triggers' : OBJECT_SPEC[s.objectKind].type ? 'types' : 'objects';

/**
 * Statements written in the sql: files mean their unqualified names in the manifest's default
 * schema: run with it in place of public (pg_catalog still first), and the plan's path pinned again after.
 */
const inSchema = (schema: string | undefined, stmts: readonly string[]): string[] =>
  schema === undefined
    ? [...stmts]
    : [`SET LOCAL search_path TO ${quoteIdent(schema)}`, ...stmts, pinLocal('search_path')];
/** The same after COMMIT, outside a transaction (CREATE INDEX CONCURRENTLY): SET for the statements' time. */
const inSchemaOutside = (schema: string | undefined, stmts: readonly string[]): string[] =>
  schema === undefined
    ? [...stmts]
    : [`SET search_path TO ${quoteIdent(schema)}`, ...stmts, `SET search_path TO ${PLAN_SEARCH_PATH}`];
/** An index's name as DROP INDEX spells it, from the object's name (`index app.ix`). */
const indexName = (object: string): string => object.slice('index '.length);
const named = { object: (s: { readonly object: string }) => s.object } as const;
/** Statements PostgreSQL refuses in a transaction block (a subscription's that touch its slot): after COMMIT. */
const outside = (s: { readonly objectKind: ObjectKind; readonly statements: readonly string[] }): boolean =>
  OBJECT_SPEC[s.objectKind].outsideTransaction === true && s.statements.some(outsideTransaction);
const OUTSIDE = ['non_transactional'] as const;
/** SET TABLESPACE of a relation that exists copies its files, ACCESS EXCLUSIVE meanwhile. */
const MOVES = ['rewrites_table'] as const;
/** A summary that says what PUBLIC gets when the statements grant it anything (public_privileges). */
const withPublic = (summary: string, statements: readonly string[]): string => {
  const gets = publicGrants(statements);
  return gets.length > 0 ? `${summary}: PUBLIC gets ${gets.join('; ')}` : summary;
};

/**
 * ALTER … OWNER TO of an object created again, given back to the role that owned it. A
 * materialized view is then refreshed: CREATE filled it with the applier's rights, REFRESH runs
 * its query as its owner (unless it is declared WITH NO DATA).
 */
const ownerSql = (s: {
  readonly object: string;
  readonly objectKind: ObjectKind;
  readonly statements: readonly string[];
  readonly owner?: string;
}): string[] => {
  // (the object's name is the catalog's, quoted: `app.v`, `app.agg(integer)`, `app.===(integer, integer)`)
  const keyword = OBJECT_SPEC[s.objectKind].ownerKeyword;
  if (s.owner === undefined || keyword === undefined) return [];
  const name = s.object.slice(s.objectKind.length + 1);
  const alter = `ALTER ${keyword} ${name} OWNER TO ${quoteIdent(s.owner)}`;
  if (s.objectKind !== 'materialized view') return [alter];
  const empty = s.statements.some(
    (t) => tryParseStatements(t)?.some((r: Node) => r.stmt?.CreateTableAsStmt?.into?.skipData === true) ?? false,
  );
  return empty ? [alter] : [alter, `REFRESH MATERIALIZED VIEW ${name}`];
};

/** An owner step's line: "give relation app.t to app_owner" (back to the role that applies, when pruned). */
const given = (s: { readonly object: string; readonly statements: readonly string[] }, prune = false): string => {
  const role = / OWNER TO (\S+)$/.exec(s.statements[0] ?? '')?.[1];
  const what = s.object.replace(/^owner of /, '');
  return prune || role === 'CURRENT_USER'
    ? `give ${what} back to the role that applies (prune)`
    : `give ${what} to ${role}`;
};

export const OBJECT_SPECS: StepSpecs<'create_object' | 'alter_object' | 'drop_object'> = {
  create_object: {
    ...PLAIN,
    ...named,
    phase: createPhase,
    hazards: (s) => [
      ...statementHazards(s.statements),
      ...(s.concurrently || outside(s) ? OUTSIDE : []),
      ...(s.moves ? MOVES : []),
    ],
    // Citus refuses triggers on distributed tables unless told that the user accepts the risk.
    sql: (s) => [
      ...(s.concurrently || outside(s) ? inSchemaOutside : inSchema)(
        s.searchPath,
        s.objectKind === 'trigger'
          ? ['SET LOCAL citus.enable_unsafe_triggers TO on', ...s.statements, pinLocal('citus.enable_unsafe_triggers')]
          : s.concurrently
            ? oneShardAtATime(s.statements)
            : s.statements,
      ),
      ...ownerSql(s),
    ],
    summary: (s) =>
      s.objectKind === 'owner'
        ? given(s)
        : withPublic(
            `${s.recreate ? 'create again' : 'create'} ${s.object}${s.concurrently ? ' concurrently (CREATE INDEX CONCURRENTLY, after COMMIT: writes go on)' : ''}${s.owner !== undefined && OBJECT_SPEC[s.objectKind].ownerKeyword !== undefined ? ` (owner ${s.owner} kept)` : ''}`,
            s.statements,
          ),
  },
  alter_object: {
    ...PLAIN,
    ...named,
    phase: createPhase,
    hazards: (s) => [...statementHazards(s.statements), ...(outside(s) ? OUTSIDE : []), ...(s.moves ? MOVES : [])],
    sql: (s) => (outside(s) ? inSchemaOutside : inSchema)(s.searchPath, s.statements),
    summary: (s) => (s.objectKind === 'owner' ? given(s) : withPublic(`${s.what} ${s.object}`, s.statements)),
  },
  drop_object: {
    ...PLAIN,
    ...named,
    // Pruned types and extensions go after the tables that may use them.
    phase: (s) => (s.reason !== 'prune' ? 'drop_objects' : OBJECT_SPEC[s.objectKind].type ? 'prune_types' : 'prune'),
    // A materialized view holds rows: dropping it (even to build it again) loses them until refreshed.
    hazards: (s) => [
      ...(s.objectKind === 'materialized view' ||
      (s.reason !== 'recreate' && s.reason !== 'invalid' && OBJECT_SPEC[s.objectKind].pruneLoses)
        ? (['drops_data'] as const)
        : []),
      ...statementHazards(s.statements),
      ...(s.concurrently || outside(s) ? OUTSIDE : []),
    ],
    sql: (s) => (s.concurrently ? [`DROP INDEX CONCURRENTLY IF EXISTS ${indexName(s.object)}`] : [...s.statements]),
    summary: (s) =>
      s.objectKind === 'owner'
        ? given(s, true)
        : s.reason === 'invalid'
          ? `${s.object} is invalid (a failed build; not used, nor enforced): drop it ${s.concurrently ? 'concurrently ' : ''}to create it again`
          : s.concurrently
            ? `drop ${s.object} concurrently (to create it again)`
            : withPublic(
                `drop ${s.object}${s.reason === 'recreate' ? ' (to create it again)' : s.reason === 'prune' ? ' (prune)' : ' (prune: it depends on what this plan changes)'}`,
                s.statements,
              ),
  },
};
