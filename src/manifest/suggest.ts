// "did you mean distributed_by?": the closest allowed key for an unknown one, read from the
// zod schema at the unknown key's path, suggested only when it is close.
import type { z } from 'zod';
import type { Path } from './locate.js';

type Schema = z.core.$ZodType;
interface Def {
  type: string;
  shape?: Record<string, Schema>;
  innerType?: Schema;
  valueType?: Schema;
  element?: Schema;
  options?: Schema[];
  in?: Schema;
}

const defOf = (s: Schema): Def => (s as unknown as { _zod: { def: Def } })._zod.def;

/** The object schemas a value at `path` may be (several for a union of objects). */
function objectsAt(schema: Schema, path: Path): Def[] {
  const d = defOf(schema);
  if (d.innerType) return objectsAt(d.innerType, path); // optional, default, nullable…
  if (d.type === 'pipe' && d.in) return objectsAt(d.in, path);
  if (d.options) return d.options.flatMap((o) => objectsAt(o, path));
  if (path.length === 0) return d.type === 'object' ? [d] : [];
  const [seg, ...rest] = path;
  if (d.type === 'object') return d.shape?.[String(seg)] ? objectsAt(d.shape[String(seg)]!, rest) : [];
  if (d.type === 'record' && d.valueType) return objectsAt(d.valueType, rest);
  if (d.type === 'array' && d.element) return objectsAt(d.element, rest);
  return [];
}

/** Optimal-string-alignment distance: edits, with a swap of two neighbours counting as one. */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/** The allowed key closest to `key` in the object at `path`, when it is close enough to be a typo. */
export function closestKey(schema: Schema, path: Path, key: string): string | undefined {
  const allowed = [...new Set(objectsAt(schema, path).flatMap((d) => Object.keys(d.shape ?? {})))];
  // At most 1 edit for short keys, 2 from six characters on: "tabels" -> "tables", never "id" -> "a".
  const limit = key.length >= 6 ? 2 : 1;
  let best: { key: string; distance: number } | undefined;
  for (const k of allowed) {
    const distance = k.toLowerCase() === key.toLowerCase() ? 0 : editDistance(key, k);
    if (distance <= limit && (!best || distance < best.distance)) best = { key: k, distance };
  }
  return best?.key;
}

/** The candidate closest to `name`, when it is close enough to be a typo (the same limits as keys). */
export function closestName(
  name: string,
  candidates: Iterable<string>,
  limit = name.length >= 6 ? 2 : 1,
): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const c of candidates) {
    if (c === name) continue;
    const distance = c.toLowerCase() === name.toLowerCase() ? 0 : editDistance(name, c);
    if (distance <= limit && (!best || distance < best.distance)) best = { name: c, distance };
  }
  return best?.name;
}

/** `; did you mean "x"?` for the closest candidate, or nothing. */
export function didYouMean(name: string, candidates: Iterable<string>): string {
  const near = closestName(name, candidates);
  return near !== undefined ? `; did you mean ${JSON.stringify(near)}?` : '';
}
