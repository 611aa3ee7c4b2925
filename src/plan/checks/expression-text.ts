// The text of a parenthesized expression of a statement (a policy's USING (…), WITH CHECK (…)), cut
// from the statement by the parser's locations, for a plan line: the parser gives where each
// node starts, not where the expression ends, so the clause's parenthesis is matched by hand.
import type { Node } from '../../sql/pg-parse.js';

const LONGEST = 80;

/** The smallest `location` in a parse tree (a byte offset; -1 where unknown). */
function firstLocation(node: Node, least = Number.POSITIVE_INFINITY): number {
  if (Array.isArray(node)) return node.reduce((m: number, n: Node) => firstLocation(n, m), least);
  if (!node || typeof node !== 'object') return least;
  let m = least;
  for (const k in node) {
    const v = node[k] as Node;
    if (k === 'location' && typeof v === 'number' && v >= 0) m = Math.min(m, v);
    else if (v !== null && typeof v === 'object') m = firstLocation(v, m);
  }
  return m;
}

/** `(expr)` as written in `statement`, shortened with … past 80 characters; `(…)` when it cannot be found. */
export function expressionText(statement: string, expr: Node): string {
  const bytes = Buffer.from(statement, 'utf8');
  const first = firstLocation(expr);
  if (!Number.isFinite(first)) return '(…)';
  // Back over the parentheses and blanks before it: the first of them opens the clause.
  let open = -1;
  for (let i = first - 1; i >= 0; i--) {
    const c = bytes[i]!;
    if (c === 0x28) open = i;
    else if (c !== 0x20 && c !== 0x0a && c !== 0x09 && c !== 0x0d) break;
  }
  if (open < 0) return '(…)';
  let depth = 0;
  let quote = 0;
  for (let i = open; i < bytes.length; i++) {
    const c = bytes[i]!;
    if (quote !== 0) {
      if (c === quote) quote = 0;
    } else if (c === 0x27 || c === 0x22) quote = c;
    else if (c === 0x28) depth++;
    else if (c === 0x29 && --depth === 0) {
      const text = bytes
        .subarray(open, i + 1)
        .toString('utf8')
        .replace(/\s+/g, ' ');
      return text.length > LONGEST ? `${text.slice(0, LONGEST - 2)}…)` : text;
    }
  }
  return '(…)';
}
