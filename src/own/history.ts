// The tool's own schema (citus_migrate): created and upgraded by the numbered SQL files in
// migrations/, applied in order with their checksums recorded; then one row per apply.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CmError, EXIT } from '../errors.js';
import type { Queryable } from '../db/connect.js';
import { inOwnSchema, readOwnTable, refuseUntrustedSchema, type OwnWait } from './own-schema.js';
import { packageRoot } from '../util/package-root.js';

const MIGRATIONS_DIR = join(packageRoot(), 'migrations');

export interface HistoryMigration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
  readonly checksum: string;
}

/** The shipped migration named `name` (its file name). */
export function historyMigration(name: string, dir = MIGRATIONS_DIR): HistoryMigration {
  const m = historyMigrations(dir).find((x) => x.name === name);
  if (!m) throw new Error(`the tool's migration ${name} is missing from ${dir}`);
  return m;
}

/** The migrations shipped with the tool, in order. */
export function historyMigrations(dir = MIGRATIONS_DIR): HistoryMigration[] {
  return readdirSync(dir)
    .filter((f) => /^\d+_[a-z0-9_]+\.sql$/.test(f))
    .sort()
    .map((f) => {
      const sql = readFileSync(`${dir}/${f}`, 'utf8');
      return {
        version: Number(f.split('_')[0]),
        name: f,
        sql,
        checksum: createHash('sha256').update(sql).digest('hex'),
      };
    });
}

const UP_TO_DATE = 'bringing the schema citus_migrate up to date';

/**
 * Brings the history schema up to date; the caller holds the apply lock. Refused (nothing run)
 * when citus_migrate exists but this role may not trust it (own-schema.ts); checked again after
 * creating it, in the same transaction, in case another role created it in between. `wait`
 * bounds every lock wait (an OwnStateLockTimeout).
 */
export async function ensureHistorySchema(
  db: Queryable,
  wait?: OwnWait,
  migrations = historyMigrations(),
): Promise<number> {
  // The history is the coordinator's own bookkeeping: with DDL propagation off, Citus neither
  // creates the schema on the workers nor records it in pg_dist_object. (On plain PostgreSQL the
  // setting is an unused placeholder.)
  await inOwnSchema(
    db,
    async () => {
      await db.query('SET LOCAL citus.enable_ddl_propagation TO off');
      await refuseUntrustedSchema(db);
      await db.query('CREATE SCHEMA IF NOT EXISTS citus_migrate');
      await db.query(`CREATE TABLE IF NOT EXISTS citus_migrate.schema_migrations (
      version integer PRIMARY KEY, name pg_catalog.text NOT NULL, checksum pg_catalog.text NOT NULL,
      applied_at pg_catalog.timestamptz NOT NULL DEFAULT pg_catalog.now())`);
      await refuseUntrustedSchema(db);
    },
    { wait, what: UP_TO_DATE },
  );
  const done = new Map(
    (
      await inOwnSchema(
        db,
        () =>
          db.query<{ version: number; checksum: string; name: string }>(
            'SELECT version, checksum, name FROM ONLY citus_migrate.schema_migrations',
          ),
        { wait, what: UP_TO_DATE },
      )
    ).rows.map((r) => [r.version, r]),
  );
  let applied = 0;
  for (const m of migrations) {
    const prior = done.get(m.version);
    if (prior) {
      if (prior.checksum !== m.checksum) {
        throw new CmError(
          `history migration ${m.name} was applied with checksum ${prior.checksum.slice(0, 12)} but the shipped file has ${m.checksum.slice(0, 12)}: the file was edited after it ran`,
          'history_checksum',
          EXIT.error,
        );
      }
      continue;
    }
    await inOwnSchema(
      db,
      async () => {
        await db.query('SET LOCAL citus.enable_ddl_propagation TO off');
        await db.query(m.sql);
        await db.query('INSERT INTO citus_migrate.schema_migrations (version, name, checksum) VALUES ($1, $2, $3)', [
          m.version,
          m.name,
          m.checksum,
        ]);
      },
      { wait, what: `running the tool's migration ${m.name}` },
    );
    applied++;
  }
  return applied;
}

export interface HistoryStart {
  readonly planFingerprint: string;
  readonly manifestSha256: string;
  readonly manifestFile: string;
  readonly steps: readonly { index: number; kind: string; summary: string; hazards: readonly string[] }[];
  readonly toolVersion: string;
  readonly clientHost: string;
}

/** Marks rows of applies whose session died (SIGKILL, lost connection) as aborted. */
export async function markAbandoned(db: Queryable, wait?: OwnWait): Promise<number> {
  const r = await inOwnSchema(
    db,
    () =>
      db.query(`UPDATE ONLY citus_migrate.applies SET outcome = 'aborted', finished_at = pg_catalog.now(),
      error = pg_catalog.jsonb_build_object('code', 'session_gone', 'message', pg_catalog.format(
        'the apply''s session (backend %s) ended before the apply recorded how it ended: the tool was killed, its connection was lost or the server restarted; found by a later apply',
        backend_pid))
    WHERE outcome = 'running' AND backend_pid NOT IN (SELECT pid FROM pg_catalog.pg_stat_activity)`),
    { wait, what: 'marking earlier applies whose session died in citus_migrate.applies' },
  );
  return r.rowCount ?? 0;
}

/** Inserts a 'running' row (autocommit, outside the apply transaction); returns its id. */
export async function startHistory(db: Queryable, h: HistoryStart, wait?: OwnWait): Promise<number> {
  const r = await inOwnSchema(
    db,
    () =>
      db.query<{ id: string }>(
        `INSERT INTO citus_migrate.applies
      (outcome, plan_fingerprint, manifest_sha256, manifest_file, steps, tool_version, client_host)
    VALUES ('running', $1, $2, $3, $4, $5, $6) RETURNING id`,
        [h.planFingerprint, h.manifestSha256, h.manifestFile, JSON.stringify(h.steps), h.toolVersion, h.clientHost],
      ),
    { wait, what: 'recording the start of this apply in citus_migrate.applies' },
  );
  return Number(r.rows[0]!.id);
}

/** How an apply ended (or that it runs), as the library, `apply --format json` and `history` say it. */
export type HistoryOutcome = 'running' | 'applied' | 'failed' | 'aborted' | 'nothing_to_do' | 'committed_not_converged';

// The table says 'success' for an applied apply (its CHECK, since migrations/001_history.sql),
// and so do the rows already in users' databases. What the tool shows says 'applied', as the
// library's ApplyResult does: the word is translated here, where rows are written and read, and
// nowhere else. The rows are not rewritten by a migration: an older citus-migrate applying to the
// same database would then break the CHECK recording its outcome after its COMMIT, and queries
// written against the table would stop matching.
const STORED_APPLIED = 'success';

/** A row as the table holds it. */
type Stored<R extends HistoryRow> = Omit<R, 'outcome'> & { readonly outcome: string };

/** A row as the tool shows it: the stored 'success' read as 'applied' (the CHECK allows no other word). */
const shown = <R extends HistoryRow>(row: Stored<R>): R =>
  ({ ...row, outcome: row.outcome === STORED_APPLIED ? 'applied' : row.outcome }) as R;

/** Records how an apply ended. */
export async function finishHistory(
  db: Queryable,
  id: number,
  outcome: Exclude<HistoryOutcome, 'running'>,
  error?: unknown,
  wait?: OwnWait,
): Promise<void> {
  await inOwnSchema(
    db,
    () =>
      db.query(
        `UPDATE ONLY citus_migrate.applies SET outcome = $2, finished_at = pg_catalog.now(),
      duration_ms = (extract(epoch FROM pg_catalog.now() - started_at) * 1000)::int, error = $3 WHERE id = $1`,
        [id, outcome === 'applied' ? STORED_APPLIED : outcome, error === undefined ? null : JSON.stringify(error)],
      ),
    { wait, what: `recording the outcome of apply #${id} (${outcome}) in citus_migrate.applies` },
  );
}

export interface HistoryRow {
  readonly id: number;
  readonly started_at: string;
  readonly duration_ms: number | null;
  /** An applied apply is `applied` here, `success` in the table itself (own/history.ts says why). */
  readonly outcome: HistoryOutcome;
  readonly plan_fingerprint: string;
  readonly manifest_file: string;
  readonly step_count: number;
  readonly tool_version: string;
  readonly db_user: string;
  readonly client_host: string | null;
  readonly error: unknown;
}

/** Whether citus_migrate.applies exists; throws when this role may not read it. */
async function historyExists(db: Queryable): Promise<boolean> {
  // Not to_regclass: it fails on a schema this role may not use.
  const exists = await db.query<{ readable: boolean }>(
    `SELECT pg_catalog.has_schema_privilege(n.oid, 'USAGE') AND pg_catalog.has_table_privilege(c.oid, 'SELECT') AS readable
    FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'citus_migrate' AND c.relname = 'applies'`,
  );
  if (exists.rowCount === 0) return false;
  if (!exists.rows[0]!.readable)
    throw new CmError(
      'this role may not read the apply history: GRANT USAGE ON SCHEMA citus_migrate TO it, and GRANT SELECT ON citus_migrate.applies TO it',
      'history_unreadable',
    );
  return true;
}

/** The recorded applies, newest first; empty when the history schema does not exist. */
export async function readHistory(db: Queryable, limit = 50): Promise<HistoryRow[]> {
  if (!(await historyExists(db))) return [];
  const rows = await readOwnTable<Stored<HistoryRow>>(
    db,
    'applies',
    `SELECT id::int, started_at::pg_catalog.text, duration_ms, outcome, plan_fingerprint, manifest_file,
      pg_catalog.jsonb_array_length(steps) AS step_count, tool_version, db_user, client_host, error
    FROM ONLY citus_migrate.applies ORDER BY id DESC LIMIT $1`,
    [limit],
  );
  return rows.map(shown);
}

export type HistoryStep = HistoryStart['steps'][number];

/** One apply in full: its row plus when it finished, the manifest's hash and its steps. */
export interface ApplyDetail extends HistoryRow {
  readonly finished_at: string | null;
  readonly manifest_sha256: string;
  readonly steps: readonly HistoryStep[];
}

/** Apply #id; throws (exit 1) when there is no such apply. */
export async function readApply(db: Queryable, id: number): Promise<ApplyDetail> {
  const rows = (await historyExists(db))
    ? await readOwnTable<Stored<ApplyDetail>>(
        db,
        'applies',
        `SELECT id::int, started_at::pg_catalog.text, finished_at::pg_catalog.text, duration_ms, outcome, plan_fingerprint,
          manifest_file, manifest_sha256, pg_catalog.jsonb_array_length(steps) AS step_count, steps, tool_version,
          db_user, client_host, error
        FROM ONLY citus_migrate.applies WHERE id = $1`,
        [id],
      )
    : [];
  if (rows.length === 0)
    throw new CmError(
      `no apply #${id} is recorded in citus_migrate.applies (history lists them)`,
      'apply_not_found',
      EXIT.error,
      {
        id,
      },
    );
  return shown(rows[0]!);
}
