// An index whose only change is the statistics target of an expression column (ALTER INDEX …
// ALTER COLUMN n SET STATISTICS, the statements after its CREATE INDEX): set in place, not
// dropped and built again.
import type { SqlObject } from '../../model/types.js';
import { objectKey } from '../../objects/key.js';
import { parseStatements } from '../../sql/pg-parse.js';
import type { Step } from '../steps/steps.js';

/** Column number → target of an index's SET STATISTICS statements; undefined if one is anything else. */
function targets(statements: readonly string[]): Map<number, number> | undefined {
  const out = new Map<number, number>();
  for (const s of statements) {
    const stmt = parseStatements(s)[0]?.stmt?.AlterTableStmt;
    const cmd = stmt?.cmds?.[0]?.AlterTableCmd;
    if (stmt?.objtype !== 'OBJECT_INDEX' || cmd?.subtype !== 'AT_SetStatistics' || cmd.num === undefined)
      return undefined;
    out.set(cmd.num as number, (cmd.def?.Integer?.ival ?? 0) as number);
  }
  return out;
}

/** The in-place change of index `a` to `d` when only statistics targets differ, else undefined. */
export function indexStatisticsChange(d: SqlObject, a: SqlObject): Step | undefined {
  if (d.create.length === 0 || a.create.length === 0) return undefined;
  if (objectKey(d.create.slice(0, 1), d.searchPath) !== objectKey(a.create.slice(0, 1), 'public')) return undefined;
  const want = targets(d.create.slice(1));
  const have = targets(a.create.slice(1));
  if (!want || !have) return undefined;
  const statements: string[] = [];
  for (const n of new Set([...have.keys(), ...want.keys()]))
    if (want.get(n) !== have.get(n))
      statements.push(`ALTER INDEX ${d.name} ALTER COLUMN ${n} SET STATISTICS ${want.get(n) ?? -1}`);
  return { kind: 'alter_object', object: d.id, objectKind: d.kind, statements, what: 'set statistics of' };
}
