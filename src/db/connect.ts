// Connections: --database URL, else DATABASE_URL, else libpq's PG* variables. Messages name the
// host, port, database and user, never the password.
import pg from 'pg';
import { connectSession } from './session.js';
import { parse as parseConnectionString } from 'pg-connection-string';
import { CmError, EXIT } from '../errors.js';
import { parseDatabaseUrl } from './database-url.js';
import { pgpassPassword } from './pgpass.js';

/** What functions that read or write the database need: a narrow query interface. */
export interface Queryable {
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values?: unknown[]): Promise<pg.QueryResult<R>>;
}

export interface ConnectionTarget {
  readonly config: pg.ClientConfig;
  /** user@host:port/database, safe to print. */
  readonly label: string;
  /** Secrets to scrub from any message that might echo them. */
  readonly secrets: readonly string[];
}

/** Thrown from the password callback: the server asked for a password and none was given. */
class NoPasswordError extends Error {}

/**
 * Resolves where to connect, from the flag, DATABASE_URL or PG* variables. A URL that does not
 * parse is exit 64 with the password masked; it never falls back to another host.
 */
export function connectionTarget(
  database: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
): ConnectionTarget {
  const url = database ?? env.DATABASE_URL;
  const secrets: string[] = [];
  let config: pg.ClientConfig;
  let explicitPassword: string | undefined;
  // libpq's passfile parameter (a URL's ?passfile=...) names the password file over PGPASSFILE.
  let passfile: string | undefined;
  let host: string;
  let port: number;
  let db: string;
  let user: string;
  if (url !== undefined && url !== '') {
    const parsed = parseDatabaseUrl(url);
    if (parsed.password) secrets.push(parsed.password, encodeURIComponent(parsed.password));
    explicitPassword = parsed.password ?? env.PGPASSWORD;
    host = parsed.host || parsed.params.host || env.PGHOST || 'localhost';
    port = parsed.port ?? (parsed.params.port ? Number(parsed.params.port) : undefined) ?? Number(env.PGPORT || 5432);
    user = parsed.user ?? parsed.params.user ?? env.PGUSER ?? 'postgres';
    db = parsed.database ?? parsed.params.dbname ?? env.PGDATABASE ?? user;
    passfile = parsed.params.passfile;
    // Checked strictly above; pg-connection-string still turns sslmode and the like into options.
    const {
      password: _ignored,
      passfile: _file,
      ...options
    } = parseConnectionString(url) as ReturnType<typeof parseConnectionString> & { passfile?: string };
    config = { ...(options as pg.ClientConfig), host, port, user, database: db };
  } else {
    host = env.PGHOST ?? 'localhost';
    port = Number(env.PGPORT ?? 5432);
    user = env.PGUSER ?? 'postgres';
    db = env.PGDATABASE ?? user;
    explicitPassword = env.PGPASSWORD;
    config = { host, port, user, database: db };
  }
  if (env.PGPASSWORD) secrets.push(env.PGPASSWORD);
  // Called only when the server asks for one: the given password, else the password file.
  const password = async (): Promise<string> => {
    const found =
      explicitPassword ??
      pgpassPassword({ host, port, database: db, user }, passfile ? { ...env, PGPASSFILE: passfile } : env);
    if (found === undefined) {
      throw new NoPasswordError(
        passfile
          ? `no password for user ${user} in the URL's passfile ${passfile} (missing, readable by others, or no line for ${host}:${port})`
          : `no password given for user ${user} (the server asks for one: put it in the URL, PGPASSWORD, or a password file, ~/.pgpass or PGPASSFILE, mode 0600)`,
      );
    }
    if (!secrets.includes(found)) secrets.push(found);
    return found;
  };
  return {
    config: { ...config, password, application_name: 'citus-migrate' },
    label: `${user}@${host}:${port}/${db}`,
    secrets,
  };
}

/** Removes every secret from a message. */
export function scrub(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) if (s.length > 0) out = out.split(s).join('********');
  return out;
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
  const client = new pg.Client({ ...target.config, connectionTimeoutMillis: 10_000 });
  client.on('error', () => undefined); // a dropped connection surfaces as the failing query's error
  signal?.addEventListener(
    'abort',
    () => {
      client.end().catch(() => undefined);
    },
    { once: true },
  );
  try {
    await connectSession(client);
  } catch (e) {
    // A refused handshake (no password to give) leaves the socket open until the server's
    // authentication_timeout (60 s): close it now.
    await client.end().catch(() => undefined);
    const reason = scrub((e as Error).message || String((e as NodeJS.ErrnoException).code ?? e), target.secrets);
    if (e instanceof NoPasswordError)
      throw new CmError(`cannot connect to ${target.label}: ${reason}`, 'no_password', EXIT.error, {
        target: target.label,
      });
    throw new CmError(`cannot connect to ${target.label}: ${reason}`, 'connection', EXIT.error, {
      target: target.label,
      sqlstate: (e as { code?: string }).code,
    });
  }
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}
