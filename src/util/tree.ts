// Walks over trees of plain data (parse trees of user SQL, JSON documents) with a stack of their
// own, not the call stack: how deep a tree is is its author's to choose (a CHECK of 2,000 nested
// ORs, a view over 1,000 views), and a recursive walk ended in "Maximum call stack size exceeded".

/** What `enter` may answer for a node: another node to walk instead, or a final value not walked. */
export type Entered = { readonly final: unknown } | { readonly node: unknown };

/**
 * A copy of `root`: each array and object copied member by member (objects without the keys
 * `keep` refuses), `enter` first given each value (to replace it, or to end the walk there),
 * `leave` given each object copy once its members are copied.
 */
export function copyTree(
  root: unknown,
  opts: {
    readonly enter?: (node: unknown) => Entered | undefined;
    readonly keep?: (key: string) => boolean;
    readonly leave?: (copy: Record<string, unknown>) => void;
  },
): unknown {
  const holder: Record<string, unknown> = {};
  type Task =
    | { readonly value: unknown; readonly into: Record<string | number, unknown>; readonly key: string | number }
    | { readonly finish: Record<string, unknown> };
  const stack: Task[] = [{ value: root, into: holder, key: 'root' }];
  while (stack.length > 0) {
    const task = stack.pop()!;
    if ('finish' in task) {
      opts.leave?.(task.finish);
      continue;
    }
    let v = task.value;
    let final = false;
    for (let e = opts.enter?.(v); e !== undefined; e = final ? undefined : opts.enter?.(v)) {
      if ('final' in e) {
        v = e.final;
        final = true;
      } else v = e.node;
    }
    if (final || v === null || typeof v !== 'object') {
      task.into[task.key] = v;
    } else if (Array.isArray(v)) {
      const list = new Array<unknown>(v.length);
      task.into[task.key] = list;
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], into: list as never, key: i });
    } else {
      const out: Record<string, unknown> = {};
      task.into[task.key] = out;
      // Keys in their order: each member's place first, its value filled in by its task.
      const keys = Object.keys(v).filter((k) => !opts.keep || opts.keep(k));
      for (const k of keys) out[k] = undefined;
      stack.push({ finish: out });
      for (let i = keys.length - 1; i >= 0; i--)
        stack.push({ value: (v as Record<string, unknown>)[keys[i]!], into: out, key: keys[i]! });
    }
  }
  return holder.root;
}

/** Calls `visit` with every object member of `root` (key, value), depth first, in the order a recursive walk would. */
export function eachMember(root: unknown, visit: (key: string, value: unknown) => void): void {
  // Each frame: a container and where in it the walk is.
  const stack: {
    readonly keys: readonly (string | number)[];
    readonly of: Record<string | number, unknown>;
    at: number;
  }[] = [];
  const push = (v: unknown): void => {
    if (v === null || typeof v !== 'object') return;
    stack.push({ keys: Array.isArray(v) ? v.map((_, i) => i) : Object.keys(v), of: v as never, at: 0 });
  };
  push(root);
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if (top.at === top.keys.length) {
      stack.pop();
      continue;
    }
    const k = top.keys[top.at++]!;
    const value = top.of[k];
    if (typeof k === 'string') visit(k, value);
    push(value);
  }
}
