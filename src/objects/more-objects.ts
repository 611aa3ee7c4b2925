// Objects of the sql: files read from statements of their own: extended statistics (CREATE
// STATISTICS names one, on one table or materialized view; ALTER STATISTICS … SET STATISTICS n is
// part of the object it follows) and publications (ALTER PUBLICATION is part of the one it names).
import type { Node } from '../sql/pg-parse.js';
import { strings } from '../sql/pg-parse.js';
import { relationRef } from '../model/object-ref.js';
import { quoteIdent } from '../sql/quote.js';
import type { Classified } from './alter-table.js';
import { listName, relName } from './statement-parts.js';

/** The statement tags read here. */
export type MoreTag = 'CreateStatsStmt' | 'AlterStatsStmt' | 'CreatePublicationStmt' | 'AlterPublicationStmt';

const MORE_TAGS: ReadonlySet<string> = new Set<MoreTag>([
  'CreateStatsStmt',
  'AlterStatsStmt',
  'CreatePublicationStmt',
  'AlterPublicationStmt',
]);
/** Whether a statement's tag is one read here. */
export const isMoreTag = (tag: string): tag is MoreTag => MORE_TAGS.has(tag);

/** The object a statement of MoreTag declares, or why it is refused. */
export function moreObject(tag: MoreTag, s: Node, defaultSchema: string): Classified | string {
  if (tag === 'CreatePublicationStmt') return { kind: 'publication', name: quoteIdent(s.pubname) };
  if (tag === 'AlterPublicationStmt') return { kind: 'publication', name: quoteIdent(s.pubname), amends: true };
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
