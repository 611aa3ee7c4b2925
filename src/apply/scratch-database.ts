// The scratch database `plan --prove` builds its copy in: created by the tool under a name of its
// own (citus_migrate_prove_<random>) on every node of the cluster, with the encoding and locale of
// the database it copies, from template0 (nothing another role put in template1), the citus
// extension in it and the workers registered where the cluster runs Citus; dropped after, and only
// that database. Citus does not create a database on the workers (with
// citus.enable_create_database_propagation it does, without the extension in it), so the tool
// connects to each worker itself, at the address pg_dist_node gives, with its own credentials.
import { randomBytes } from 'node:crypto';
import { CmError, EXIT } from '../errors.js';
import { retarget, withClient, type ConnectionTarget, type Queryable } from '../db/connect.js';
import { quoteIdent, quoteLiteral, sqlInt } from '../sql/quote.js';

export interface ScratchDatabase {
  /** The scratch database on the coordinator (or the one server). */
  readonly target: ConnectionTarget;
  readonly name: string;
  readonly citus: boolean;
  /** Drops it on every node; resolves to the nodes where that failed, with why (empty: all gone). */
  drop(): Promise<string[]>;
}

interface ServerFacts {
  readonly createdb: boolean;
  readonly citus: boolean;
  readonly encoding: string;
  readonly collate: string;
  readonly ctype: string;
  readonly icu: string | null;
}

const FACTS_SQL = `SELECT (r.rolsuper OR r.rolcreatedb) AS createdb,
  EXISTS (SELECT FROM pg_catalog.pg_extension e WHERE e.extname OPERATOR(pg_catalog.=) 'citus') AS citus,
  pg_catalog.pg_encoding_to_char(d.encoding) AS encoding, d.datcollate AS collate, d.datctype AS ctype,
  CASE WHEN d.datlocprovider OPERATOR(pg_catalog.=) 'i' THEN d.daticulocale END AS icu
  FROM pg_catalog.pg_roles r, pg_catalog.pg_database d
  WHERE r.rolname OPERATOR(pg_catalog.=) CURRENT_USER AND d.datname OPERATOR(pg_catalog.=) pg_catalog.current_database()`;

// The coordinator first (group 0), then the workers: where the scratch database's nodes are.
const NODES_SQL = `SELECT n.groupid AS "group", n.nodename AS host, n.nodeport AS port FROM pg_catalog.pg_dist_node n
  WHERE n.noderole OPERATOR(pg_catalog.=) 'primary'::pg_catalog.noderole AND n.isactive ORDER BY n.groupid, n.nodeid`;

// Whatever the node's defaults say, this CREATE DATABASE stays on the node it runs on.
const LOCAL_DATABASE_DDL = `SELECT pg_catalog.set_config(s.name, 'off', false) FROM pg_catalog.pg_settings s
  WHERE s.name OPERATOR(pg_catalog.=) 'citus.enable_create_database_propagation'`;

function createDatabaseSql(name: string, f: ServerFacts): string {
  return [
    `CREATE DATABASE ${quoteIdent(name)} TEMPLATE template0 ENCODING ${quoteLiteral(f.encoding)}`,
    `LC_COLLATE ${quoteLiteral(f.collate)} LC_CTYPE ${quoteLiteral(f.ctype)}`,
    ...(f.icu !== null ? [`LOCALE_PROVIDER icu ICU_LOCALE ${quoteLiteral(f.icu)}`] : []),
  ].join(' ');
}

async function run(target: ConnectionTarget, statements: readonly string[]): Promise<void> {
  await withClient(target, async (c) => {
    for (const s of statements) await c.query(s);
  });
}

/**
 * Creates the scratch database on the server (and its workers) at `target`. Refused, creating
 * nothing, when the role may not create databases; a failure half-way drops what was created.
 */
export async function createScratchDatabase(target: ConnectionTarget): Promise<ScratchDatabase> {
  const name = `citus_migrate_prove_${randomBytes(5).toString('hex')}`;
  const { facts, nodes } = await withClient(target, async (c: Queryable) => {
    const f = (await c.query<ServerFacts>(FACTS_SQL)).rows[0]!;
    const n = f.citus ? (await c.query<{ group: number; host: string; port: number }>(NODES_SQL)).rows : [];
    return { facts: f, nodes: n };
  });
  if (!facts.createdb)
    throw new CmError(
      `--prove builds a copy in a scratch database, and ${target.label} may not create one (the role has no CREATEDB): give --prove-on a server where it may`,
      'prove_unavailable',
      EXIT.error,
    );
  const coordinator = nodes.find((n) => n.group === 0);
  const workers = nodes.filter((n) => n.group !== 0);
  const scratch = retarget(target, { database: name });
  // Where it was created: each node's own database, from which its copy is dropped.
  const created: ConnectionTarget[] = [];
  const drop = async (): Promise<string[]> => {
    const failed: string[] = [];
    // The coordinator first: its sessions hold connections to the workers' copies.
    for (const node of created) {
      try {
        await run(node, [LOCAL_DATABASE_DDL, `DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`]);
      } catch (e) {
        failed.push(`${node.label}: ${(e as Error).message}`);
      }
    }
    return failed;
  };
  try {
    await run(target, [LOCAL_DATABASE_DDL, createDatabaseSql(name, facts)]);
    created.push(target);
    if (facts.citus) {
      for (const w of workers) {
        const onWorker = retarget(target, { host: w.host, port: w.port });
        await run(onWorker, [LOCAL_DATABASE_DDL, createDatabaseSql(name, facts)]).catch((e: unknown) => {
          throw new CmError(
            `--prove could not create its scratch database on the worker ${w.host}:${w.port} (as pg_dist_node names it) as ${String(target.config.user)}: ${(e as Error).message}; give --prove-on a cluster the tool can reach`,
            'prove_unavailable',
            EXIT.error,
          );
        });
        created.push(onWorker);
        await run(retarget(onWorker, { database: name }), ['CREATE EXTENSION citus']);
      }
      const host = coordinator?.host ?? String(target.config.host);
      const port = coordinator?.port ?? Number(target.config.port);
      await run(scratch, [
        'CREATE EXTENSION citus',
        `SELECT pg_catalog.citus_set_coordinator_host(${quoteLiteral(host)}, ${sqlInt(port)})`,
        ...workers.map((w) => `SELECT pg_catalog.citus_add_node(${quoteLiteral(w.host)}, ${sqlInt(w.port)})`),
      ]);
    }
  } catch (e) {
    await drop();
    throw e;
  }
  return { target: scratch, name, citus: facts.citus, drop };
}
