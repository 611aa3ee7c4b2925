// The cluster library's options and results (cluster-api.ts), shared by its local and container
// halves.

/** Receives each progress line (what `cluster up|down` prints on stderr), without a newline. */
export type ClusterNote = (line: string) => void;

/** Where the cluster's folder is: `dir` (default .citus-migrate/cluster) relative to `cwd`. */
export interface ClusterPlace {
  readonly dir?: string;
  /** Default: process.cwd(). */
  readonly cwd?: string;
}

/** What `cluster up` is asked for; strings are parsed as the CLI's flags are. */
export interface ClusterUpOptions extends ClusterPlace {
  /** 0..16, default 2. */
  readonly workers?: string | number;
  /** The coordinator's port; the workers listen on the ports right after it. */
  readonly port?: string | number;
  /** auto (default), docker or local. */
  readonly engine?: string;
  /** The citusdata/citus image (container engine). */
  readonly image?: string;
  /** Environment read for PG_BIN, PATH and the container engine. Default: process.env. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

export interface ClusterUpResult {
  /** `started` now, or `running` already in the folder (with the same options). */
  readonly status: 'started' | 'running';
  readonly engine: 'docker' | 'local';
  /** The coordinator's URL (a container cluster's names its pgpass file, never the password). */
  readonly url: string;
}

export interface NodeStatus {
  readonly name: string;
  /** host:port */
  readonly address: string;
  /** running / stopped, or the container's state (missing when it is gone). */
  readonly state: string;
  readonly running: boolean;
}

export interface ClusterStatusResult {
  readonly engine: 'docker' | 'local';
  readonly nodes: readonly NodeStatus[];
  readonly url?: string;
  /** Local binaries: where the data and logs are. */
  readonly data?: string;
  /** Containers: the image and the label they carry. */
  readonly image?: string;
  readonly label?: string;
  /** Every node runs. */
  readonly running: boolean;
}
