// Where `citus-migrate cluster up|down|status` keeps a throwaway cluster unless told otherwise.
export const DEFAULT_CLUSTER_DIR = '.citus-migrate/cluster';
