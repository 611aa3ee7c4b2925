// Connections: --database (a postgresql:// URL or libpq key=value string), else DATABASE_URL,
// else libpq's PG* variables. Messages name the host, port, database and user, never the password.
import pg from 'pg';
import { CmError, EXIT } from '../errors.js';
import { parseDatabaseUrl } from './database-url.js';
import { pgpassPassword } from './pgpass.js';
import { connectSession } from './session.js';
import { sslSetting } from './ssl.js';
import { timed } from '../util/timings.js';

/** What functions that read or write the database need: a narrow query interface. */
export interface Queryable {
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values?: unknown[]): Promise<pg.QueryResult<R>>;
}

export interface ConnectionTarget {
  /** Replaced by withClient when sslmode=prefer meets a server without TLS, so later clients skip it too. */
  config: pg.ClientConfig;
  /** user@host:port/database, safe to print. */
  readonly label: string;
  /** sslmode=prefer: connect without TLS when the server refuses it. */
  readonly tlsFallback: boolean;
}

/** Thrown from the password callback: the server asked for a password and none was given. */
class NoPasswordError extends Error {}

/** The environment variables a connection reads (DATABASE_URL, PG*). */
export type Env = Readonly<Record<string, string | undefined>>;

/**
 * Resolves where to connect, from the flag, DATABASE_URL or PG* variables, each keyword as libpq
 * takes it (the string's, else the PG* variable's). A string that does not parse is exit 64 with
 * its password masked; it never falls back to another host.
 */
export function connectionTarget(database: string | undefined, env: Env): ConnectionTarget {
  const url = database ?? env.DATABASE_URL;
  const parsed = url !== undefined && url !== '' ? parseDatabaseUrl(url) : { host: '', params: {} };
  const params: Readonly<Record<string, string | undefined>> = parsed.params;
  const host = parsed.host || env.PGHOST || 'localhost';
  const port = parsed.port ?? Number(env.PGPORT || 5432);
  const user = parsed.user ?? env.PGUSER ?? 'postgres';
  const db = parsed.database ?? env.PGDATABASE ?? user;
  const explicitPassword = parsed.password ?? env.PGPASSWORD;
  // libpq's passfile keyword names the password file over PGPASSFILE.
  const passfile = params.passfile;
  const { ssl, fallback } = sslSetting({
    sslmode: params.sslmode ?? env.PGSSLMODE,
    sslrootcert: params.sslrootcert ?? env.PGSSLROOTCERT,
    sslcert: params.sslcert ?? env.PGSSLCERT,
    sslkey: params.sslkey ?? env.PGSSLKEY,
    sslpassword: params.sslpassword,
  });
  const options = params.options ?? env.PGOPTIONS;
  const timeout = Number(params.connect_timeout ?? env.PGCONNECT_TIMEOUT ?? 10);
  // Called only when the server asks for one: the given password, else the password file.
  // An empty one (`password=''`) is none, as libpq reads it: not replaced by PGPASSWORD, and the
  // password file is read.
  const password = async (): Promise<string> => {
    const found =
      explicitPassword ||
      pgpassPassword({ host, port, database: db, user }, passfile ? { ...env, PGPASSFILE: passfile } : env);
    if (!found) {
      throw new NoPasswordError(
        passfile
          ? `no password for user ${user} in the passfile ${passfile} (missing, readable by others, or no line for ${host}:${port})`
          : `no password given for user ${user} (the server asks for one: put it in the URL, PGPASSWORD, or a password file, ~/.pgpass or PGPASSFILE, mode 0600)`,
      );
    }
    return found;
  };
  return {
    config: {
      host,
      port,
      user,
      database: db,
      password,
      ssl,
      ...(options ? { options } : {}),
      connectionTimeoutMillis: timeout > 0 ? timeout * 1000 : 10_000,
      application_name: 'citus-migrate',
    },
    label: `${user}@${host}:${port}/${db}`,
    tlsFallback: fallback,
  };
}

function connectError(target: ConnectionTarget, e: unknown): CmError {
  // The server's and node's messages never hold the password, and the label is built without it.
  const reason = (e as Error).message || String((e as NodeJS.ErrnoException).code ?? e);
  if (e instanceof NoPasswordError)
    return new CmError(`cannot connect to ${target.label}: ${reason}`, 'no_password', EXIT.error, {
      target: target.label,
    });
  // A server's error has a five-character SQLSTATE; a socket's (ECONNREFUSED…) is an errno code.
  const code = (e as { code?: string }).code;
  return new CmError(`cannot connect to ${target.label}: ${reason}`, 'connection', EXIT.error, {
    target: target.label,
    ...(code !== undefined && /^[0-9A-Z]{5}$/.test(code)
      ? { sqlstate: code }
      : code !== undefined
        ? { errno: code }
        : {}),
  });
}

/** Connects a client (with the session settings); an aborted `signal` closes it at once. */
async function open(target: ConnectionTarget, signal: AbortSignal | undefined): Promise<pg.Client> {
  for (;;) {
    const client = new pg.Client(target.config);
    client.on('error', () => undefined); // a dropped connection surfaces as the failing query's error
    signal?.addEventListener(
      'abort',
      () => {
        client.end().catch(() => undefined);
      },
      { once: true },
    );
    try {
      await timed('connect', () => connectSession(client));
      return client;
    } catch (e) {
      // A refused handshake (no password to give) leaves the socket open until the server's
      // authentication_timeout (60 s): close it now.
      await client.end().catch(() => undefined);
      // sslmode=prefer as libpq: a server that answers the TLS request with "no" is used without.
      if (target.tlsFallback && target.config.ssl && /does not support SSL/.test((e as Error).message ?? '')) {
        target.config = { ...target.config, ssl: false };
        continue;
      }
      throw connectError(target, e);
    }
  }
}

/**
 * Opens a client, runs fn, and always closes it. Connection failures say where and why. An
 * aborted `signal` closes the connection at once (whatever it was doing fails).
 */
export async function withClient<T>(
  target: ConnectionTarget,
  fn: (client: pg.Client) => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  const client = await open(target, signal);
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * The same user, password and TLS settings at another node or database (a worker, a scratch
 * database). The password is the one given, or the password file's line for the first target.
 */
export function retarget(
  t: ConnectionTarget,
  at: { readonly host?: string; readonly port?: number; readonly database?: string },
): ConnectionTarget {
  const config: pg.ClientConfig = {
    ...t.config,
    ...(at.host !== undefined ? { host: at.host } : {}),
    ...(at.port !== undefined ? { port: at.port } : {}),
    ...(at.database !== undefined ? { database: at.database } : {}),
  };
  return {
    config,
    label: `${config.user}@${config.host}:${config.port}/${config.database}`,
    tlsFallback: t.tlsFallback,
  };
}
