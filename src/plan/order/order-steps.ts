// The plan's order as a dependency graph (stripe/pg-schema-diff's sql_graph.go): steps start in
// phase order, then each step that needs a name another step makes (steps/step-names.ts) comes after
// it: a table after the function or sequence its default uses, a domain after the function its
// CHECK calls, a SQL-language function after the tables, views and functions its body reads, a
// view after the functions it calls, and a view that takes a dropped table's name after the drop.
// Steps on one object keep their phase order among themselves. A dependent is moved later, never
// a dependency earlier, so nothing runs sooner than its phase.
//
// Cycles: a SQL body's reads are only needed while check_function_bodies is on, so inside a
// cycle they are dropped and the routine is created with it off (as pg_dump does); the plan
// says so. A cycle left after that keeps the phase order.
import type { ClusterModel } from '../../model/types.js';
import { chainKeysOf, needsOf, providesOf, removesOf } from '../steps/step-names.js';
import type { Step } from '../steps/steps.js';

interface Edge {
  readonly from: number;
  readonly to: number;
  readonly soft: boolean;
}

function graphEdges(steps: readonly Step[], desired: ClusterModel): Edge[] {
  const edges: Edge[] = [];
  const makers = new Map<string, number[]>();
  const removers = new Map<string, number[]>();
  const add = (m: Map<string, number[]>, k: string, i: number): void => {
    m.set(k, [...(m.get(k) ?? []), i]);
  };
  steps.forEach((s, i) => {
    for (const p of providesOf(s, desired)) add(makers, p, i);
    for (const r of removesOf(s)) add(removers, r, i);
  });
  const last = new Map<string, number>();
  steps.forEach((s, i) => {
    for (const k of chainKeysOf(s)) {
      const before = last.get(k);
      if (before !== undefined && before !== i) edges.push({ from: before, to: i, soft: false });
      last.set(k, i);
    }
    const needs = needsOf(s, desired);
    for (const [names, soft] of [
      [needs.hard, false],
      [needs.soft, true],
    ] as const)
      for (const n of names) for (const m of makers.get(n) ?? []) if (m !== i) edges.push({ from: m, to: i, soft });
    for (const p of providesOf(s, desired))
      for (const r of removers.get(p) ?? []) if (r !== i) edges.push({ from: r, to: i, soft: false });
  });
  return edges;
}

/** Strongly connected components (Tarjan), as lists of vertices; only those with a cycle. */
function cycles(n: number, edges: readonly Edge[]): number[][] {
  const out: number[][] = [];
  const succ: number[][] = Array.from({ length: n }, () => []);
  for (const e of edges) succ[e.from]!.push(e.to);
  const index = new Array<number>(n).fill(-1);
  const low = new Array<number>(n).fill(0);
  const onStack = new Array<boolean>(n).fill(false);
  const stack: number[] = [];
  let next = 0;
  for (let root = 0; root < n; root++) {
    if (index[root] !== -1) continue;
    // Iterative, so that a long chain does not overflow the call stack.
    const work: [number, number][] = [[root, 0]];
    while (work.length > 0) {
      const top = work[work.length - 1]!;
      const [v, k] = top;
      if (k === 0) {
        index[v] = low[v] = next++;
        stack.push(v);
        onStack[v] = true;
      }
      if (k < succ[v]!.length) {
        top[1] = k + 1;
        const w = succ[v]![k]!;
        if (index[w] === -1) work.push([w, 0]);
        else if (onStack[w]) low[v] = Math.min(low[v]!, index[w]!);
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1]![0];
        low[parent] = Math.min(low[parent]!, low[v]!);
      }
      if (low[v] === index[v]) {
        const comp: number[] = [];
        for (let w = -1; w !== v;) {
          w = stack.pop()!;
          onStack[w] = false;
          comp.push(w);
        }
        if (comp.length > 1) out.push(comp);
      }
    }
  }
  return out;
}

/** Kahn's algorithm, taking the earliest planned step whenever several are ready. */
function topological(n: number, edges: readonly Edge[]): number[] {
  const succ: number[][] = Array.from({ length: n }, () => []);
  const indegree = new Array<number>(n).fill(0);
  for (const e of edges) {
    succ[e.from]!.push(e.to);
    indegree[e.to]!++;
  }
  const heap: number[] = [];
  const push = (x: number): void => {
    heap.push(x);
    for (let i = heap.length - 1; i > 0;) {
      const p = (i - 1) >> 1;
      if (heap[p]! <= heap[i]!) break;
      [heap[p], heap[i]] = [heap[i]!, heap[p]!];
      i = p;
    }
  };
  const pop = (): number => {
    const top = heap[0]!;
    const end = heap.pop()!;
    if (heap.length > 0) {
      heap[0] = end;
      for (let i = 0; ;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < heap.length && heap[l]! < heap[m]!) m = l;
        if (r < heap.length && heap[r]! < heap[m]!) m = r;
        if (m === i) break;
        [heap[m], heap[i]] = [heap[i]!, heap[m]!];
        i = m;
      }
    }
    return top;
  };
  for (let i = 0; i < n; i++) if (indegree[i] === 0) push(i);
  const out: number[] = [];
  while (heap.length > 0) {
    const v = pop();
    out.push(v);
    for (const w of succ[v]!) if (--indegree[w]! === 0) push(w);
  }
  return out;
}

/** Orders steps (given in phase order) by what each needs; routines whose body reads are part of a cycle get uncheckedBody. */
export function orderSteps(steps: readonly Step[], desired: ClusterModel): Step[] {
  if (steps.length < 2) return [...steps];
  let edges = graphEdges(steps, desired);
  const unchecked = new Set<number>();
  // Inside a cycle, a SQL body's reads give way first: its routine is created unchecked.
  for (const comp of cycles(steps.length, edges)) {
    const inside = new Set(comp);
    const soft = edges.filter((e) => e.soft && inside.has(e.from) && inside.has(e.to));
    for (const e of soft) unchecked.add(e.to);
    edges = edges.filter((e) => !soft.includes(e));
  }
  // What is still a cycle keeps its phase order.
  for (const comp of cycles(steps.length, edges)) {
    const inside = new Set(comp);
    edges = edges.filter((e) => !(inside.has(e.from) && inside.has(e.to) && e.from > e.to));
  }
  return topological(steps.length, edges).map((i) => {
    const s = steps[i]!;
    if (s.kind !== 'create_routine' && s.kind !== 'replace_routine') return s;
    if (unchecked.has(i)) return { ...s, uncheckedBody: true };
    // A checked SQL body is read at CREATE under the session's search_path; its unqualified names
    // were resolved above under its schema, then public, so it is created under that path.
    return s.searchPath === undefined && s.routine.schema !== 'public' && needsOf(s, desired).soft.length > 0
      ? { ...s, bodyPath: s.routine.schema }
      : s;
  });
}
