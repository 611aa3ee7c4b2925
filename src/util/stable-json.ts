// JSON with sorted keys: equal data gives equal text (fingerprints, comparisons). With a stack of
// its own: a parse tree of user SQL may be thousands of levels deep.

/** Text to emit as it is (the walk's punctuation). */
class Raw {
  constructor(readonly text: string) {}
}
/** A value in an array: `undefined` there is written as nothing (as Array.prototype.join does). */
class Item {
  constructor(readonly value: unknown) {}
}

/** Serialises a value with object keys sorted at every level. */
export function stableJson(value: unknown): string {
  if (value === undefined) return JSON.stringify(value) as never; // (as JSON.stringify: no text)
  const out: string[] = [];
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    let v = stack.pop();
    if (v instanceof Raw) {
      out.push(v.text);
      continue;
    }
    const inArray = v instanceof Item;
    if (v instanceof Item) v = v.value;
    if (Array.isArray(v)) {
      stack.push(new Raw(']'));
      for (let i = v.length - 1; i >= 0; i--) {
        stack.push(new Item(v[i]));
        if (i > 0) stack.push(new Raw(','));
      }
      stack.push(new Raw('['));
    } else if (v && typeof v === 'object') {
      const keys = Object.keys(v).sort();
      stack.push(new Raw('}'));
      for (let i = keys.length - 1; i >= 0; i--) {
        stack.push((v as Record<string, unknown>)[keys[i]!]);
        stack.push(new Raw(`${i > 0 ? ',' : ''}${JSON.stringify(keys[i])}:`));
      }
      stack.push(new Raw('{'));
    } else {
      const text = JSON.stringify(v) as string | undefined;
      out.push(text ?? (inArray ? '' : 'undefined'));
    }
  }
  return out.join('');
}
