// What the global setup hands to integration tests: how to reach the throwaway servers.
import 'vitest';

export interface NodeAddress {
  readonly host: string;
  readonly port: number;
}

export interface ServerInfo {
  readonly user: string;
  readonly password?: string;
  readonly nodes: readonly NodeAddress[]; // coordinator first
  readonly citus: boolean;
}

declare module 'vitest' {
  export interface ProvidedContext {
    plainPg: ServerInfo;
    citus: ServerInfo | null;
    citusSkipReason: string;
  }
}
