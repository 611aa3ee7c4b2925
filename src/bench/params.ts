// Parameter generators for bench workloads, driven by a seeded PRNG so runs repeat exactly.
import type { ResolvedParam } from '../manifest/resolve-bench.js';

export type Rng = () => number; // uniform in [0, 1)

/** mulberry32: small, fast, seedable; one stream per client (seed + client index). */
export function seededRng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Uniform integer in [lo, hi], inclusive. */
export const randInt = (rng: Rng, lo: number, hi: number): number => lo + Math.floor(rng() * (hi - lo + 1));

const ALNUM = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

export type ParamValue = number | string | boolean;
export type Generator = (rng: Rng) => ParamValue;

/** A generator for one manifest parameter. `runC` is the run's NURand constant C (TPC-C 2.1.6). */
export function generator(p: ResolvedParam, runC: number): Generator {
  if ('int' in p) {
    const [lo, hi] = p.int;
    return (r) => randInt(r, lo, hi);
  }
  if ('const' in p) {
    const v = p.const;
    return () => v;
  }
  if ('nurand' in p) {
    const [A, x, y] = p.nurand;
    const c = runC % (A + 1);
    // NURand(A, x, y) = (((random(0, A) | random(x, y)) + C) % (y - x + 1)) + x
    return (r) => (((randInt(r, 0, A) | randInt(r, x, y)) + c) % (y - x + 1)) + x;
  }
  if ('pick' in p) {
    const list = p.pick;
    return (r) => list[Math.floor(r() * list.length)]!;
  }
  const [min, max] = p.text;
  return (r) => {
    const n = randInt(r, min, max);
    let s = '';
    for (let i = 0; i < n; i++) s += ALNUM[Math.floor(r() * ALNUM.length)];
    return s;
  };
}
