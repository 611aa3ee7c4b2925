// How objects defined by SQL are compared: the statements' parse trees, normalised so that what
// PostgreSQL prints back (pg_get_viewdef, pg_get_indexdef, pg_get_constraintdef…) and what a
// user writes compare equal when they mean the same: positions dropped, casts of constants
// unwrapped, OR REPLACE / IF NOT EXISTS / ONLY ignored, unqualified relations in the default schema.
import { parseStatements, type Node } from '../sql/pg-parse.js';
import { normalizeNode } from '../sql/normalize.js';
import { stableJson } from '../util/stable-json.js';

const IGNORED = new Set(['replace', 'if_not_exists', 'inh', 'missing_ok']);

function tidy(node: Node, defaultSchema: string): Node {
  if (Array.isArray(node)) return node.map((n) => tidy(n, defaultSchema));
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    if (IGNORED.has(k)) continue;
    out[k] = tidy(v, defaultSchema);
  }
  if (typeof out.relname === 'string' && out.schemaname === undefined && 'relpersistence' in out) out.schemaname = defaultSchema;
  return out;
}

/** The comparison key of an object's statements; the text itself when it does not parse. */
export function objectKey(statements: readonly string[], defaultSchema = 'public'): string {
  try {
    return stableJson(statements.map((s) => parseStatements(s).map((x: Node) => tidy(normalizeNode(x.stmt), defaultSchema))));
  } catch {
    return stableJson(statements);
  }
}
