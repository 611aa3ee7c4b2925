// Types for delay-proxy.mjs (bench tooling, plain JavaScript so bench scripts run without a build).
export interface Route { readonly targetHost?: string; readonly targetPort: number; readonly listenPort?: number }
export interface ProxyStats { connections: number; chunks: number; bytes: number }

export declare class DelayLine {
  constructor(delayMs?: number);
  delayMs: number;
  push(fn: () => void): void;
  calibrate(samples?: number): Promise<number>;
  close(): Promise<number>;
}

export interface DelayProxy {
  readonly ports: number[];
  readonly stats: ProxyStats;
  readonly wakeLateMs: number;
  readonly delayMs: number;
  setDelay(ms: number): void;
  close(): Promise<void>;
}

export interface SpawnedDelayProxy {
  readonly ports: number[];
  readonly wakeLateMs: number;
  readonly pid: number | undefined;
  setDelay(ms: number): Promise<unknown>;
  usage(): Promise<ProxyStats & { cpuMs: number }>;
  stop(): Promise<void>;
}

export interface AddedDelay {
  readonly requestedMs: number;
  readonly addedOneWayMs: { readonly p50: number; readonly p99: number };
  readonly rttMs: { readonly direct: number; readonly proxied: number };
}

export declare function startDelayProxy(routes: readonly Route[], delayMs?: number): Promise<DelayProxy>;
export declare function spawnDelayProxy(routes: readonly Route[], delayMs?: number): Promise<SpawnedDelayProxy>;
export declare function measureAddedDelay(delaysMs: readonly number[], opts?: { samples?: number }): Promise<AddedDelay[]>;
