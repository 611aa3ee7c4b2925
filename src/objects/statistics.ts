// Extended statistics objects in the sql: files: CREATE STATISTICS names one, on one table or
// materialized view; ALTER STATISTICS … SET STATISTICS n is part of the object it follows.
import type { Node } from '../sql/pg-parse.js';
import { strings } from '../sql/pg-parse.js';
import { relationRef } from '../model/object-ref.js';
import type { Classified } from './alter-table.js';
import { listName, relName } from './statement-parts.js';

/** The object a CreateStatsStmt or AlterStatsStmt declares, or why it is refused. */
export function statisticsObject(
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
