// A sequence a column default still draws from is not pruned: DROP SEQUENCE would fail ("other
// objects depend on it"), and CASCADE would silently drop the default. Defaults name their
// sequence as nextval('name'::regclass), printed relative to search_path public.
import type { ClusterModel, Sequence } from '../../model/types.js';
import { quoteIdent } from '../../sql/quote.js';

const NEXTVAL = /nextval\('((?:[^']|'')+)'::regclass\)/g;

/** The sequence ids ("public.s", "app.\"My Seq\"") a default expression draws from. */
export function sequencesOf(expr: string | undefined): string[] {
  if (expr === undefined) return [];
  return [...expr.matchAll(NEXTVAL)].map((m) => {
    const name = m[1]!.replace(/''/g, "'");
    // A dot outside double quotes separates the schema; without one the name is in public.
    let inQuote = false;
    for (const ch of name) {
      if (ch === '"') inQuote = !inQuote;
      else if (ch === '.' && !inQuote) return name;
    }
    return `${quoteIdent('public')}.${name}`;
  });
}

/**
 * For each sequence about to be pruned, the columns (table.column) whose default still uses it,
 * among the tables that stay (declared, or in the cluster and not pruned).
 */
export function sequenceUsers(
  pruned: readonly Sequence[],
  desired: ClusterModel,
  actual: ClusterModel,
  droppedTables: ReadonlySet<string>,
): Map<string, string[]> {
  const wanted = new Set(pruned.map((s) => s.id));
  const users = new Map<string, string[]>();
  const tables = [
    ...Object.values(desired.tables),
    ...Object.values(actual.tables).filter((t) => !desired.tables[t.id] && !droppedTables.has(t.id)),
  ];
  for (const t of tables) {
    // A declared table's columns are the ones it will have; one declared without columns keeps its own.
    const cols = t.columns ?? actual.tables[t.id]?.columns ?? [];
    for (const c of cols)
      for (const id of sequencesOf(c.default))
        if (wanted.has(id)) users.set(id, [...(users.get(id) ?? []), `${t.id}.${quoteIdent(c.name)}`]);
  }
  return users;
}
