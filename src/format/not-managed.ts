// Objects of kinds citus-migrate does not model, grouped by kind, as every format lists them.
// The kinds are listed once, beside the catalog query that reads them (a constant, no query).
// eslint-disable-next-line @typescript-eslint/no-restricted-imports
import { NOT_MANAGED_KINDS } from '../introspect/catalog-not-managed.js';
import type { NotManaged } from '../plan/plan.js';

const order = (kind: string): number => {
  const i = (NOT_MANAGED_KINDS as readonly string[]).indexOf(kind);
  return i < 0 ? NOT_MANAGED_KINDS.length : i;
};

/** The objects grouped by kind, in the catalog's order of kinds. */
export function groupNotManaged(items: readonly NotManaged[]): { kind: string; names: string[] }[] {
  const by = new Map<string, string[]>();
  for (const x of items) by.set(x.kind, [...(by.get(x.kind) ?? []), x.name]);
  return [...by.entries()].sort((a, b) => order(a[0]) - order(b[0])).map(([kind, names]) => ({ kind, names }));
}

/** One line per kind: "trigger (2): public.t.a, public.t.b", at most `max` names each. */
export function notManagedLines(items: readonly NotManaged[], max = 5): string[] {
  return groupNotManaged(items).map(
    ({ kind, names }) =>
      `${kind} (${names.length}): ${names.slice(0, max).join(', ')}${names.length > max ? `, … and ${names.length - max} more` : ''}`,
  );
}
