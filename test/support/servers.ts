// What the global setup hands to integration tests: how to reach the throwaway servers.
import 'vitest';

export interface NodeAddress {
  readonly host: string;
  readonly port: number;
  /** Where Citus reaches the node when that is not where tests do: a container's network alias. */
  readonly registerAs?: { readonly host: string; readonly port: number };
}

export interface ServerInfo {
  readonly user: string;
  readonly password?: string;
  readonly nodes: readonly NodeAddress[]; // coordinator first
  readonly citus: boolean;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** A set of servers per worker; a file claims one (server-claim.ts) in this directory. */
    plainPg: ServerInfo[];
    serverClaims: string;
    citus: (ServerInfo | null)[];
    citusSkipReason: string;
    /** Which Citus the tests run on (local binaries, containers of an image, a URL), or ''. */
    citusPath: string;
    /** The image the container tests run, and why they cannot ('' when they can). */
    containerImage: string;
    containerSkipReason: string;
  }
}
