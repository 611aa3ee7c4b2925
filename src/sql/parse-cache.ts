// A plan reads the same statements several times (the manifest's SQL objects when loaded, their
// comparison keys, the hazards and needs of the steps that run them, the verification after an
// apply): the parser's answer is kept by text, and each caller gets a tree of its own (they are
// changed in place) from JSON.parse, ~5x cheaper than parsing again (1,000 tables' 9,000 objects:
// five parses of each). Up to CACHE_CHARS of answers; then it starts afresh.
import type { PgQueryWasm } from '@libpg-query/parser/wasm/libpg-query.js';
import { parseRaw } from './pg-wasm.js';

const CACHE_CHARS = 64 * 1024 * 1024;
const parsed = new Map<string, ReturnType<typeof parseRaw>>();
let cachedChars = 0;

/** parseRaw of `sql`, kept by text. */
export function cachedParse(w: PgQueryWasm, sql: string): ReturnType<typeof parseRaw> {
  const hit = parsed.get(sql);
  if (hit) return hit;
  const out = parseRaw(w, sql);
  const size = sql.length + ('tree' in out ? out.tree.length : out.error.length);
  if (cachedChars + size > CACHE_CHARS) {
    parsed.clear();
    cachedChars = 0;
  }
  parsed.set(sql, out);
  cachedChars += size;
  return out;
}
