// Connections: --database URL, else DATABASE_URL, else libpq's PG* variables. Messages name the
// host, port, database and user, never the password.
import pg from 'pg';
import { parse as parseConnectionString } from 'pg-connection-string';
import { CmError, EXIT } from '../errors.js';

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

/** Resolves where to connect, from the flag, DATABASE_URL or PG* variables. */
export function connectionTarget(database: string | undefined, env: Readonly<Record<string, string | undefined>>): ConnectionTarget {
  const url = database ?? env.DATABASE_URL;
  const secrets: string[] = [];
  let config: pg.ClientConfig;
  let host: string; let port: string; let db: string; let user: string;
  if (url !== undefined && url !== '') {
    let parsed: ReturnType<typeof parseConnectionString>;
    try {
      parsed = parseConnectionString(url);
    } catch {
      throw new CmError('the database URL does not parse (expected postgresql://user@host:port/database)', 'connection', EXIT.usage);
    }
    if (parsed.password) secrets.push(parsed.password, encodeURIComponent(parsed.password));
    if (env.PGPASSWORD) secrets.push(env.PGPASSWORD);
    config = { connectionString: url, ...(parsed.password || !env.PGPASSWORD ? {} : { password: env.PGPASSWORD }) };
    host = parsed.host ?? env.PGHOST ?? 'localhost';
    port = String(parsed.port ?? env.PGPORT ?? 5432);
    db = parsed.database ?? env.PGDATABASE ?? parsed.user ?? env.PGUSER ?? 'postgres';
    user = parsed.user ?? env.PGUSER ?? 'postgres';
  } else {
    host = env.PGHOST ?? 'localhost';
    port = env.PGPORT ?? '5432';
    user = env.PGUSER ?? 'postgres';
    db = env.PGDATABASE ?? user;
    if (env.PGPASSWORD) secrets.push(env.PGPASSWORD);
    config = { host, port: Number(port), user, database: db, ...(env.PGPASSWORD ? { password: env.PGPASSWORD } : {}) };
  }
  return { config: { ...config, application_name: 'citus-migrate' }, label: `${user}@${host}:${port}/${db}`, secrets };
}

/** Removes every secret from a message. */
export function scrub(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) if (s.length > 0) out = out.split(s).join('********');
  return out;
}

/** Opens a client, runs fn, and always closes it. Connection failures say where and why. */
export async function withClient<T>(target: ConnectionTarget, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ ...target.config, connectionTimeoutMillis: 10_000 });
  client.on('error', () => undefined); // a dropped connection surfaces as the failing query's error
  try {
    await client.connect();
  } catch (e) {
    const reason = scrub((e as Error).message || String((e as NodeJS.ErrnoException).code ?? e), target.secrets);
    throw new CmError(`cannot connect to ${target.label}: ${reason}`, 'connection', EXIT.error, { target: target.label, sqlstate: (e as { code?: string }).code });
  }
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}
