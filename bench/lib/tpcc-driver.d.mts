// Types for tpcc-driver.mjs (bench tooling, plain JavaScript so bench scripts run without a build).
import type pg from 'pg';

export type Kind = 'new_order' | 'payment' | 'order_status' | 'delivery' | 'stock_level';
export interface Transaction { readonly kind: Kind; readonly args: number[]; readonly lines?: { item: number; qty: number }[] }
export interface Rng { next(): number; int(lo: number, hi: number): number; nurand(A: number, lo: number, hi: number): number }
export interface MixResult {
  readonly mode: 'call' | 'statements';
  readonly clients: number;
  readonly seconds: number;
  readonly nopm: number;
  readonly tps: number;
  readonly errors: number;
  readonly firstError: Record<string, string>;
  readonly byKind: Record<Kind, { ok: number; errors: Record<string, number>; p50: number; p95: number }>;
  readonly clientCpuMs: number;
}

export declare const MIX: [Kind, number][];
export declare function makeRng(seed: number): Rng;
export declare function drawTransaction(rng: Rng, warehouses: number): Transaction;
export declare function callSql(tx: Transaction): string;
export declare function runTransaction(client: pg.Client, mode: 'call' | 'statements', tx: Transaction): Promise<void>;
export declare function runMix(opts: {
  url: string; mode: 'call' | 'statements'; clients: number; warehouses: number; durationMs: number; warmupMs?: number; seed?: number;
  onWindow?: () => unknown; onWindowEnd?: () => unknown;
}): Promise<MixResult>;
export declare function checkConsistency(client: pg.Client): Promise<string[]>;
