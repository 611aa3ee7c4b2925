// The benchmarks' PostgreSQL: BENCH_URL's server, or a local one started for the run, with a
// connection to its postgres database that makes and drops the benchmarks' own databases.
// Test and bench tooling only, not part of the CLI.
import pg from 'pg';
import { startLocalCluster } from '../../dist/cluster/local.js';

/** Connects to BENCH_URL (or starts a local server); `fresh(db)` (re)creates an empty database and gives its URL. */
export async function benchDatabases() {
  let server;
  let base = process.env.BENCH_URL;
  if (!base) {
    server = await startLocalCluster({ citus: false });
    base = server.url('postgres');
  }
  const urlOf = (db) => {
    const u = new URL(base);
    u.pathname = `/${db}`;
    return u.toString();
  };
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  const drop = (db) => admin.query(`DROP DATABASE IF EXISTS "${db}" WITH (FORCE)`);
  return {
    base,
    admin,
    urlOf,
    drop,
    fresh: async (db) => {
      await drop(db);
      await admin.query(`CREATE DATABASE "${db}" TEMPLATE template0`);
      return urlOf(db);
    },
    /** Ends the connection and stops the server it started (none for BENCH_URL). */
    close: async () => {
      await admin.end();
      await server?.stop();
    },
  };
}
