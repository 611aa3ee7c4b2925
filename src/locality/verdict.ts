// Where a statement runs, decided from what classify.ts read of it: each table instance is
// reference, local (coordinator), of another group, or filtered by the distribution argument
// (its distribution column in the argument's equivalence class); the statement takes the worst.

export type Locality = 'shard' | 'reference' | 'cross_shard' | 'coordinator' | 'unknown';
export const LOCALITIES: readonly Locality[] = ['shard', 'reference', 'cross_shard', 'coordinator', 'unknown'];

/** What the analysis needs to know of a table. */
export interface TableFacts {
  readonly id: string; // qualified, as a plan prints it
  readonly kind: 'distributed' | 'reference' | 'single_shard' | 'local';
  readonly column?: string; // distribution column
  readonly group?: string; // colocation group
  readonly columns?: readonly string[]; // in order, when known
}

/** The routine a statement runs in. */
export interface RoutineScope {
  readonly routineName: string;
  readonly variables: ReadonlySet<string>;
  /** The distribution argument and the variables only ever assigned from it. */
  readonly keyVars: ReadonlySet<string>;
  readonly keyParam: number; // $n of the distribution argument
  readonly keyName: string;
  readonly group: string | undefined;
  /** A table by schema (undefined: as the routine's search_path finds it) and name. */
  table(schema: string | undefined, name: string): TableFacts | undefined;
}

export interface StatementLocality {
  readonly tables: readonly string[];
  readonly locality: Locality;
  readonly why: string;
}

export interface Instance {
  readonly facts: TableFacts | undefined;
  readonly name: string;
  readonly alias: string;
  readonly level: Level;
}
export interface Level {
  readonly parent: Level | undefined;
  readonly instances: Instance[];
  readonly ctes: Set<string>;
}

/** The token of the distribution argument in the equivalence classes. */
export const KEY = 'key';

/** Equivalence classes of column, variable and parameter tokens (union-find). */
export class Classes {
  private readonly parent = new Map<string, string>();
  find(a: string): string {
    let p = this.parent.get(a) ?? a;
    if (p !== a) {
      p = this.find(p);
      this.parent.set(a, p);
    }
    return p;
  }
  union(a: string, b: string): void {
    const ra = this.find(a);
    const rb = this.find(b);
    if (ra !== rb) this.parent.set(ra, rb);
  }
  members(a: string, all: Iterable<string>): string[] {
    const r = this.find(a);
    return [...all].filter((x) => this.find(x) === r);
  }
}

/** What reading a statement found: its table instances and the equalities between tokens. */
export interface Seen {
  readonly instances: readonly Instance[];
  colToken(i: Instance, column: string): string;
  readonly classes: Classes;
  readonly tokens: ReadonlySet<string>;
  /** Column token -> how it is filtered otherwise (an array, an IN list). */
  readonly notes: ReadonlyMap<string, string>;
  /** INSERT targets: the distribution column's token and the values given for it. */
  readonly inserts: readonly { token: string; values: (string | undefined)[] }[];
  describe(token: string): string;
}

/** The statement's locality: the worst of its tables', with why. */
export function verdict(scope: RoutineScope, seen: Seen): StatementLocality {
  const { instances, colToken, classes, tokens, notes, inserts, describe } = seen;
  const tables = [...new Set(instances.map((i) => i.facts?.id ?? i.name))];
  const insertOk = new Map(
    inserts.map((x) => [x.token, x.values.every((v) => v !== undefined && classes.find(v) === classes.find(KEY))]),
  );
  const found: { locality: Locality; why: string }[] = [];
  for (const i of instances) {
    const f = i.facts;
    if (!f) {
      found.push({ locality: 'unknown', why: `${i.name} is not a table the manifest or the cluster knows` });
      continue;
    }
    if (f.kind === 'reference') {
      found.push({ locality: 'reference', why: 'reference tables only (a copy on every worker)' });
      continue;
    }
    if (f.kind === 'local') {
      found.push({ locality: 'coordinator', why: `${f.id} is a local table: it lives on the coordinator only` });
      continue;
    }
    if (f.group !== scope.group) {
      found.push({
        locality: 'cross_shard',
        why: `${f.id} is ${f.group ? `in colocation group ${f.group}` : 'not colocated'}, the routine with ${scope.group ?? 'no group'}`,
      });
      continue;
    }
    if (f.kind === 'single_shard') {
      found.push({ locality: 'shard', why: `${f.id} is a single-shard table of the routine's group` });
      continue;
    }
    const t = colToken(i, f.column!);
    const ok = insertOk.get(t) ?? classes.find(t) === classes.find(KEY);
    if (ok) {
      found.push({ locality: 'shard', why: `by ${f.column} = ${scope.keyName}` });
      continue;
    }
    const others = classes.members(t, tokens).filter((x) => x !== t);
    const how = insertOk.has(t)
      ? `${f.column} is not given ${scope.keyName}`
      : notes.has(t)
        ? `${i.alias}.${f.column} is compared with ${notes.get(t)}`
        : others.length > 0
          ? `by ${i.alias}.${f.column} = ${others.map(describe).join(' = ')}, not ${scope.keyName}`
          : `not filtered by ${f.column} = ${scope.keyName}`;
    found.push({ locality: 'cross_shard', why: `${f.id} ${how}` });
  }
  for (const locality of ['unknown', 'coordinator', 'cross_shard'] as const) {
    const hit = found.filter((x) => x.locality === locality);
    if (hit.length > 0) return { tables, locality, why: [...new Set(hit.map((x) => x.why))].join('; ') };
  }
  if (found.some((x) => x.locality === 'shard')) {
    const shard = instances
      .filter((i) => i.facts?.kind === 'distributed' || i.facts?.kind === 'single_shard')
      .map((i) => i.facts!.id);
    return { tables, locality: 'shard', why: `${[...new Set(shard)].join(', ')} by ${scope.keyName}` };
  }
  return { tables, locality: 'reference', why: 'reference tables only (a copy on every worker)' };
}
