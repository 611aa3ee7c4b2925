// Keys named `__proto__` through zod. zod's records skip such a key (assigning it to a plain
// object would replace its prototype), so a table, column, colocation group… named `__proto__`
// vanished from the parsed manifest, and a `prune: true` plan dropped the table. The raw value
// carries it under a stand-in while zod validates it; the parsed manifest gets it back, in the
// same place, in objects without a prototype (util/dict.ts) so that no name is special there.
// Both walks are loops, not recursion: the depth of a manifest is the author's.
import { dict } from '../util/dict.js';
import type { Path } from './locate.js';
import type { ProblemList } from './problems.js';

/** What `__proto__` is called while zod reads the manifest: a name no manifest can use (refused). */
export const PROTO_STAND_IN = '__proto__\uE000';

/** A YAML mapping (not a list, nor a value such as an InexactNumber). */
const isMapping = (v: unknown): v is Record<string, unknown> => {
  const proto = typeof v === 'object' && v !== null ? Object.getPrototypeOf(v) : undefined;
  return proto === Object.prototype || proto === null;
};

/**
 * Whether a manifest's text may hold a key `__proto__` or the stand-in: spelt out, or through a
 * double-quoted escape (`"\x5f_proto__"`). Most texts hold none, and skip both walks.
 */
export const mayHoldProtoKey = (text: string): boolean => /__proto__|\\|\uE000/.test(text);

/** A path as the author wrote it (the stand-in back to `__proto__`). */
export const authorPath = (path: Path): Path => path.map((s) => (s === PROTO_STAND_IN ? '__proto__' : s));

/**
 * Copies `value` (a mapping or list read from YAML) with every `__proto__` key renamed to the
 * stand-in, keys in their order. Returns the copy and the paths of keys that spell the stand-in.
 */
export function hideProtoKeys(value: unknown): { value: unknown; hidden: boolean; reserved: Path[] } {
  const reserved: Path[] = [];
  let hidden = false;
  const copy = copyTree(value, (k, at) => {
    if (k === PROTO_STAND_IN) reserved.push(pathOf(at, k));
    if (k !== '__proto__') return k;
    hidden = true;
    return PROTO_STAND_IN;
  });
  return { value: copy, hidden, reserved };
}

/**
 * The parsed manifest with the stand-in back to `__proto__`, every mapping without a prototype.
 * `hidden`: whether hideProtoKeys renamed any key; zod's output is copied either way (its
 * mappings have Object's prototype), unless its tables mapping has none already.
 */
export function restoreProtoKeys<T extends { readonly tables: object }>(value: T, hidden: boolean): T {
  if (!hidden && Object.getPrototypeOf(value.tables) === null) return value;
  return copyTree(value, (k) => (k === PROTO_STAND_IN ? '__proto__' : k)) as T;
}

/** Where a member is: its container's place (undefined at the top) and its key there. */
interface Place {
  readonly up: Place | undefined;
  readonly key: string | number;
}

function pathOf(at: Place | undefined, last: string): Path {
  const out: (string | number)[] = [last];
  for (let p = at; p; p = p.up) out.unshift(p.key);
  return out;
}

/** A copy of a tree of mappings and lists (mappings without a prototype), keys renamed by `rename`. */
function copyTree(root: unknown, rename: (key: string, at: Place | undefined) => string): unknown {
  const holder: Record<string, unknown> = { value: root };
  // Each entry: a source member, the copy that receives it under `key`, and where it is.
  const stack: { from: unknown; into: Record<string | number, unknown>; key: string | number; at?: Place }[] = [
    { from: root, into: holder, key: 'value' },
  ];
  while (stack.length > 0) {
    const { from, into, key, at } = stack.pop()!;
    let copy: unknown = from;
    if (Array.isArray(from)) {
      const list = new Array<unknown>(from.length);
      const here = into === holder ? undefined : { up: at, key };
      for (let i = 0; i < from.length; i++)
        stack.push({ from: from[i], into: list as never, key: i, ...(here ? { at: here } : {}) });
      copy = list;
    } else if (isMapping(from)) {
      const map = dict<unknown>();
      const here = into === holder ? undefined : { up: at, key };
      for (const k of Object.keys(from)) {
        const to = rename(k, here);
        map[to] = undefined; // (the key's place, in order; its value is filled in below)
        stack.push({ from: from[k], into: map, key: to, ...(here ? { at: here } : {}) });
      }
      copy = map;
    }
    into[key] = copy;
  }
  return holder.value;
}

/**
 * The manifest's value as zod is to read it (hideProtoKeys, when its text may hold a `__proto__`
 * key), and whether a key was hidden; a key spelling the stand-in is a problem.
 */
export function forZod(text: string, raw: unknown, problems: ProblemList): { raw: unknown; hidden: boolean } {
  if (!mayHoldProtoKey(text)) return { raw, hidden: false };
  const h = hideProtoKeys(raw);
  for (const at of h.reserved) problems.error(at, 'invalid_name', 'this name is reserved', true);
  return { raw: h.value, hidden: h.hidden };
}
