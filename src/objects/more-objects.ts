// Objects of the sql: files read from statements of their own: extended statistics (CREATE
// STATISTICS names one, on one table or materialized view; ALTER STATISTICS … SET STATISTICS n is
// part of the object it follows), publications (ALTER PUBLICATION is part of the one it names),
// subscriptions (subscription.ts),
// foreign servers, user mappings (user-mapping.ts) and foreign tables, casts, conversions (cast.ts), text search configurations' mappings,
// operator families and classes (opclass.ts), a trigger's DEPENDS ON EXTENSION, and objects built on
// the server's code (server-code.ts).
import type { Node } from '../sql/pg-parse.js';
import { strings } from '../sql/pg-parse.js';
import { relationRef, routineRef, serverRef } from '../model/object-ref.js';
import { quoteIdent } from '../sql/quote.js';
import type { Classified } from './alter-table.js';
import { listName, relName } from './statement-parts.js';
import { castObject } from './cast.js';
import { opclassObject } from './opclass.js';
import { userMappingObject } from './user-mapping.js';
import { subscriptionObject } from './subscription.js';
import { isServerCodeTag, serverCodeObject, serverCodeRef, type ServerCodeTag } from './server-code.js';

/** The statement tags read here. */
export type MoreTag =
  | 'CreateStatsStmt'
  | 'AlterStatsStmt'
  | 'CreatePublicationStmt'
  | 'AlterPublicationStmt'
  | 'CreateSubscriptionStmt'
  | 'CreateForeignServerStmt'
  | 'AlterForeignServerStmt'
  | 'CreateForeignTableStmt'
  | 'CreateUserMappingStmt'
  | 'CreateCastStmt'
  | 'CreateConversionStmt'
  | 'AlterTSConfigurationStmt'
  | 'AlterTSDictionaryStmt'
  | 'CreateOpFamilyStmt'
  | 'AlterOpFamilyStmt'
  | 'CreateOpClassStmt'
  | 'AlterObjectDependsStmt'
  | 'AlterDomainStmt';

const MORE_TAGS: ReadonlySet<string> = new Set<MoreTag>([
  'AlterObjectDependsStmt',
  'AlterDomainStmt',
  'CreateStatsStmt',
  'AlterStatsStmt',
  'CreatePublicationStmt',
  'AlterPublicationStmt',
  'CreateSubscriptionStmt',
  'CreateForeignServerStmt',
  'AlterForeignServerStmt',
  'CreateForeignTableStmt',
  'CreateUserMappingStmt',
  'CreateCastStmt',
  'CreateConversionStmt',
  'AlterTSConfigurationStmt',
  'AlterTSDictionaryStmt',
  'CreateOpFamilyStmt',
  'AlterOpFamilyStmt',
  'CreateOpClassStmt',
]);
/** Whether a statement's tag is one read here (or by server-code.ts). */
export const isMoreTag = (tag: string): tag is MoreTag | ServerCodeTag => MORE_TAGS.has(tag) || isServerCodeTag(tag);

/** The object a statement of MoreTag declares, or why it is refused. */
export function moreObject(tag: MoreTag | ServerCodeTag, s: Node, defaultSchema: string): Classified | string {
  if (isServerCodeTag(tag)) return serverCodeObject(tag, s, defaultSchema);
  if (tag === 'AlterObjectDependsStmt') return dependsObject(s, defaultSchema);
  // A CHECK added NOT VALID (CREATE DOMAIN takes none): part of the domain declared before.
  if (tag === 'AlterDomainStmt') {
    if (s.subtype !== 'C' || s.def?.Constraint?.contype !== 'CONSTR_CHECK' || !s.def.Constraint.skip_validation)
      return 'of ALTER DOMAIN, only ADD CONSTRAINT … CHECK (…) NOT VALID is managed here: write the domain as it should be in its CREATE DOMAIN';
    return { kind: 'domain', name: listName(strings(s.typeName), defaultSchema), amends: true };
  }
  if (tag === 'CreateCastStmt') return castObject(s, defaultSchema);
  // An unqualified function is PostgreSQL's own (a conversion function is C code: declared elsewhere).
  if (tag === 'CreateConversionStmt') {
    const fn = strings(s.func_name);
    return {
      kind: 'conversion',
      name: listName(strings(s.conversion_name), defaultSchema),
      deps: fn.length > 1 && fn[0] !== 'pg_catalog' ? [routineRef(fn.map(quoteIdent).join('.'))] : [],
    };
  }
  if (tag === 'CreateOpFamilyStmt' || tag === 'AlterOpFamilyStmt' || tag === 'CreateOpClassStmt')
    return opclassObject(tag, s, defaultSchema);
  // ALTER TEXT SEARCH CONFIGURATION … ADD / ALTER MAPPING …: part of the configuration, after the dictionaries it names.
  if (tag === 'AlterTSConfigurationStmt')
    return {
      kind: 'text search configuration',
      name: listName(strings(s.cfgname), defaultSchema),
      amends: true,
      deps: (s.dicts ?? []).map(
        (d: Node) => `text search dictionary ${listName(strings(d.List?.items ?? []), defaultSchema)}`,
      ),
    };
  if (tag === 'AlterTSDictionaryStmt')
    return {
      kind: 'text search dictionary',
      name: listName(strings(s.dictname), defaultSchema),
      amends: true,
      deps: [],
    };
  if (tag === 'CreatePublicationStmt') return { kind: 'publication', name: quoteIdent(s.pubname) };
  if (tag === 'AlterPublicationStmt') return { kind: 'publication', name: quoteIdent(s.pubname), amends: true };
  if (tag === 'CreateSubscriptionStmt') return subscriptionObject(s);
  // After its wrapper when the files declare it (one an extension makes is the extension's).
  if (tag === 'CreateForeignServerStmt')
    return {
      kind: 'foreign server',
      name: quoteIdent(s.servername),
      needs: [serverCodeRef('foreign data wrapper', s.fdwname)],
    };
  if (tag === 'AlterForeignServerStmt') return { kind: 'foreign server', name: quoteIdent(s.servername), amends: true };
  if (tag === 'CreateUserMappingStmt') return userMappingObject(s);
  if (tag === 'CreateForeignTableStmt') {
    const checks = (s.base.tableElts ?? []).some(
      (e: Node) =>
        e.Constraint !== undefined ||
        (e.ColumnDef?.constraints ?? []).some((c: Node) => c.Constraint?.contype === 'CONSTR_CHECK'),
    );
    if (checks)
      return "a foreign table's CHECK constraints are declared apart, as a table's are: ALTER TABLE name ADD CONSTRAINT c CHECK (…) after CREATE FOREIGN TABLE";
    return {
      kind: 'foreign table',
      name: relName(s.base.relation, defaultSchema),
      needs: [serverRef(quoteIdent(s.servername))],
    };
  }
  return statisticsObject(tag, s, defaultSchema);
}

/** The object a CreateStatsStmt or AlterStatsStmt declares, or why it is refused. */
function statisticsObject(
  tag: 'CreateStatsStmt' | 'AlterStatsStmt',
  s: Node,
  defaultSchema: string,
): Classified | string {
  if (tag === 'AlterStatsStmt')
    return { kind: 'statistics object', name: listName(strings(s.defnames), defaultSchema), amends: true };
  if (!s.defnames) return 'a statistics object needs a name here, so later plans can find it: CREATE STATISTICS name …';
  const from = s.relations?.[0]?.RangeVar;
  if (s.relations?.length !== 1 || !from) return 'CREATE STATISTICS is managed on one table';
  return {
    kind: 'statistics object',
    name: listName(strings(s.defnames), defaultSchema),
    parent: relationRef(relName(from, defaultSchema)),
  };
}

/** ALTER TRIGGER … DEPENDS ON EXTENSION: part of the trigger it follows (dropped with the extension). */
function dependsObject(s: Node, defaultSchema: string): Classified | string {
  if (s.objectType !== 'OBJECT_TRIGGER')
    return 'ALTER … DEPENDS ON EXTENSION is managed for triggers only (ALTER TRIGGER t ON table DEPENDS ON EXTENSION e)';
  if (s.remove) return 'NO DEPENDS ON EXTENSION: write the trigger without its DEPENDS ON EXTENSION instead';
  const table = relName(s.relation, defaultSchema);
  const trigger = strings(s.object?.List?.items)[0] ?? '';
  return { kind: 'trigger', name: `${table}.${quoteIdent(trigger)}`, parent: relationRef(table), amends: true };
}
