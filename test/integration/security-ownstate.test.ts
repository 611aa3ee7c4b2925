// The tool's own state against the database's other roles: a role that may write citus_migrate
// (pg_write_all_data, a column grant, PUBLIC, a group) cannot make a plan hide a change, and an
// apply refuses to run until it cannot write there; a role that may only connect cannot hold every
// apply off; and every wait of the tool on its own tables, or on the verification read after
// COMMIT, ends within --lock-timeout / --wait with a message that names the holder and says
// whether anything was committed.
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { holdApplyLock } from '../support/apply-lock.js';
import { startCli } from '../support/cli-process.js';
import { catalogSnapshot, freshDatabase, plainServers, pollCount, sql, type TestDb } from '../support/db.js';
import { hostileRole, type Hostile } from '../support/hostile.js';
import { ACCOUNTS_MANIFEST, projectDir } from '../support/project.js';
import { cli } from '../support/run-cli.js';

// PostgreSQL prints this view back as "SELECT t.id FROM t": only object_state says it is unchanged.
const viewProject = (view: string): string =>
  projectDir(
    {
      'citus-migrate.yaml':
        'version: 1\ntables:\n  t: { local: true, columns: { id: bigint, hidden: boolean }, primary_key: [id] }\nsql: [views.sql]\n',
      'views.sql': `${view}\n`,
    },
    'cm-ownstate-',
  );
const OLD_VIEW = 'CREATE VIEW v AS SELECT id FROM t;';
// The security fix the forged row would hide: hidden rows no longer show through the view.
const FIXED_VIEW = 'CREATE VIEW v AS SELECT id FROM t WHERE NOT hidden;';

const urlAs = (db: TestDb, role: string): string => {
  const u = new URL(db.url);
  u.username = role;
  u.password = '';
  return u.toString();
};

async function connect(url: string, applicationName?: string): Promise<pg.Client> {
  const c = new pg.Client({ connectionString: url, ...(applicationName ? { application_name: applicationName } : {}) });
  await c.connect();
  return c;
}

const planJson = async (db: TestDb, cwd: string) => {
  const r = await cli(['plan', '--database', db.url, '--format', 'json'], { cwd });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as {
    changes: boolean;
    transaction: { steps: { summary: string }[] };
    warnings: { code: string; message: string }[];
    recordObjects: Record<string, string>;
  };
};

const viewDef = async (db: TestDb): Promise<string> =>
  (await db.query<{ d: string }>("SELECT pg_get_viewdef('public.v'::regclass) AS d"))[0]!.d;

describe("the tool's own state: nobody but its owner and superusers may write it", () => {
  let db: TestDb;
  let etl: Hostile;
  beforeEach(async () => {
    db = await freshDatabase(plainServers(), 'ownstate');
    etl = await hostileRole(plainServers(), db);
  });
  afterEach(async () => {
    // pg_write_all_data is the whole server's: never left granted for the tests that follow.
    await sql(plainServers(), 'postgres', `REVOKE pg_write_all_data FROM ${etl.role}`);
  });

  it('a pg_write_all_data role forges object_state: plan still plans the fix, apply refuses naming the role and the REVOKE', async () => {
    expect((await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: viewProject(OLD_VIEW) })).code).toBe(0);
    const fixed = viewProject(FIXED_VIEW);
    const honest = await planJson(db, fixed);
    expect(honest.transaction.steps.map((s) => s.summary)).toEqual([
      'drop view public.v (to create it again)',
      'create again view public.v',
    ]);
    // The ETL role says the fix is already there: the declared text's hash, the live view's print.
    // (pg_write_all_data alone cannot read, so no WHERE: the table's one row.)
    await sql(plainServers(), 'postgres', `GRANT pg_write_all_data TO ${etl.role}`);
    const forger = await connect(urlAs(db, etl.role));
    const forged = await forger.query('UPDATE citus_migrate.object_state SET desired_hash = $1', [
      honest.recordObjects['view public.v'],
    ]);
    expect(forged.rowCount).toBe(1);
    await forger.end();

    const plan = await planJson(db, fixed);
    expect(plan.changes).toBe(true);
    expect(plan.transaction.steps.map((s) => s.summary)).toEqual([
      'drop view public.v (to create it again)',
      'create again view public.v',
    ]);
    expect(plan.warnings.map((w) => w.code)).toEqual(['object_state_untrusted']);
    expect(plan.warnings[0]!.message).toContain(
      `role ${etl.role} holds INSERT, UPDATE, DELETE on citus_migrate.applies, citus_migrate.apply_lock, citus_migrate.object_state, citus_migrate.schema_migrations (as a member of pg_write_all_data)`,
    );
    expect(plan.warnings[0]!.message).toContain(`REVOKE pg_write_all_data FROM ${etl.role};`);

    const before = await catalogSnapshot(db, { history: true });
    const applies = await db.query('SELECT count(*)::int AS n FROM citus_migrate.applies');
    const r = await cli(['apply', '--database', db.url, '--auto-approve', '--format', 'json'], { cwd: fixed });
    expect(r.code, r.stderr).toBe(1);
    expect(JSON.parse(r.stdout).error.code).toBe('history_schema_untrusted');
    expect(r.stderr).toContain(
      `  role ${etl.role} holds INSERT, UPDATE, DELETE on citus_migrate.applies, citus_migrate.apply_lock, citus_migrate.object_state, citus_migrate.schema_migrations (as a member of pg_write_all_data)\n`,
    );
    expect(r.stderr).toContain(
      `  role ${etl.role} holds UPDATE on citus_migrate.applies_id_seq (as a member of pg_write_all_data)\n`,
    );
    expect(r.stderr).toContain(
      `Take the privileges back, as a superuser:\n  REVOKE pg_write_all_data FROM ${etl.role};\n`,
    );
    expect(r.stderr).toContain('Nothing was run.');
    expect(await catalogSnapshot(db, { history: true })).toBe(before);
    expect(await db.query('SELECT count(*)::int AS n FROM citus_migrate.applies')).toEqual(applies);
    expect(await viewDef(db)).not.toContain('hidden');

    // Taken back: the row it forged is still noticed (its hash no longer matches the one the tool
    // keeps where only the owner can write); the next apply makes the fix and records afresh.
    await sql(plainServers(), 'postgres', `REVOKE pg_write_all_data FROM ${etl.role}`);
    const after = await planJson(db, fixed);
    expect(after.transaction.steps.map((s) => s.summary)).toEqual([
      'drop view public.v (to create it again)',
      'create again view public.v',
    ]);
    expect(after.warnings.map((w) => w.message)).toEqual([
      expect.stringContaining('its rows changed since citus-migrate last wrote them'),
    ]);
    const fix = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: fixed });
    expect(fix.code, fix.stderr).toBe(0);
    expect(await viewDef(db)).toContain('NOT t.hidden');
    const clean = await planJson(db, fixed);
    expect([clean.transaction.steps, clean.warnings]).toEqual([[], []]);
  });

  it('finds every way to write it: a column grant, PUBLIC, a group, a sequence; each with the REVOKE that ends it', async () => {
    const cwd = viewProject(OLD_VIEW);
    expect((await cli(['apply', '--database', db.url, '--auto-approve'], { cwd })).code).toBe(0);
    const group = `${etl.role}_group`;
    await db.query(
      [
        `GRANT USAGE ON SCHEMA citus_migrate TO ${etl.role}`,
        `GRANT SELECT, UPDATE (desired_hash) ON citus_migrate.object_state TO ${etl.role}`,
        'GRANT TRUNCATE ON citus_migrate.schema_migrations TO PUBLIC',
        `CREATE ROLE ${group}`,
        `GRANT INSERT ON citus_migrate.applies TO ${group}`,
        `GRANT ${group} TO ${etl.role}`,
        `GRANT UPDATE ON SEQUENCE citus_migrate.applies_id_seq TO ${group}`,
      ].join('; '),
    );
    try {
      const r = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: viewProject(FIXED_VIEW) });
      expect(r.code, r.stderr).toBe(1);
      const lines = r.stderr.split('\n').filter((l) => /^ {2}(role|PUBLIC|REVOKE)/.test(l));
      expect(lines).toEqual([
        '  PUBLIC holds TRUNCATE on citus_migrate.schema_migrations (granted to PUBLIC on the table)',
        `  role ${etl.role} holds INSERT on citus_migrate.applies (as a member of ${group})`,
        `  role ${etl.role} holds UPDATE on citus_migrate.applies_id_seq (as a member of ${group})`,
        `  role ${etl.role} holds UPDATE on citus_migrate.object_state (granted on its columns)`,
        `  role ${group} holds INSERT on citus_migrate.applies (granted on the table)`,
        `  role ${group} holds UPDATE on citus_migrate.applies_id_seq (granted on the table)`,
        '  REVOKE TRUNCATE ON TABLE citus_migrate.schema_migrations FROM PUBLIC;',
        `  REVOKE UPDATE ON TABLE citus_migrate.object_state FROM ${etl.role};`,
        `  REVOKE INSERT ON TABLE citus_migrate.applies FROM ${group};`,
        `  REVOKE UPDATE ON SEQUENCE citus_migrate.applies_id_seq FROM ${group};`,
        `  REVOKE ${group} FROM ${etl.role};`,
      ]);
      // Each REVOKE it prints, run, is enough: the apply then goes on.
      await db.query(lines.filter((l) => l.startsWith('  REVOKE')).join('\n'));
      const again = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: viewProject(FIXED_VIEW) });
      expect(again.code, again.stderr).toBe(0);
    } finally {
      await sql(plainServers(), db.name, `DROP OWNED BY ${group}`);
      await sql(plainServers(), 'postgres', `DROP ROLE ${group}`);
    }
  });

  it('plan does not trust a citus_migrate another role created before the first apply, with a row that hides the fix', async () => {
    // The row's two hashes, as an apply would have recorded them, from a scratch database.
    const scratch = await freshDatabase(plainServers(), 'ownscratch');
    expect(
      (await cli(['apply', '--database', scratch.url, '--auto-approve'], { cwd: viewProject(OLD_VIEW) })).code,
    ).toBe(0);
    const [row] = await scratch.query<{ actual: string }>(
      'SELECT actual_hash AS actual FROM citus_migrate.object_state',
    );
    const fixed = viewProject(FIXED_VIEW);
    const desired = (await planJson(scratch, fixed)).recordObjects['view public.v'];
    await db.query('CREATE TABLE t (id bigint PRIMARY KEY, hidden boolean); CREATE VIEW v AS SELECT id FROM t');
    await db.query(`GRANT CREATE ON DATABASE ${db.name} TO ${etl.role}`);
    await etl.run([
      'CREATE SCHEMA citus_migrate',
      'CREATE TABLE citus_migrate.object_state (id text PRIMARY KEY, desired_hash text NOT NULL, actual_hash text NOT NULL, recorded_at timestamptz NOT NULL DEFAULT now())',
      `INSERT INTO citus_migrate.object_state VALUES ('view public.v', '${desired}', '${row!.actual}')`,
    ]);
    const plan = await planJson(db, fixed);
    expect(plan.transaction.steps.map((s) => s.summary)).toEqual([
      'drop view public.v (to create it again)',
      'create again view public.v',
    ]);
    expect(plan.warnings.map((w) => w.message)).toEqual([
      expect.stringContaining(
        `schema citus_migrate is owned by role ${etl.role}, neither this role nor a superuser; relation citus_migrate.object_state is owned by role ${etl.role}, neither this role nor a superuser`,
      ),
    ]);
  });
});

/** Rows of pg_locks: sessions holding the apply lock's row (the transaction that locked it). */
/** Sessions holding the apply lock (own/apply-lock.ts: SHARE UPDATE EXCLUSIVE on its table). */
const APPLY_LOCK_HOLDERS = `SELECT count(*)::int AS n FROM pg_locks l
  WHERE l.locktype = 'relation' AND l.granted AND l.relation = 'citus_migrate.apply_lock'::regclass
    AND l.mode = 'ShareUpdateExclusiveLock'`;

const ADD_COLUMN = ACCOUNTS_MANIFEST.replace('name: text }', 'name: text, note: text }');

describe('the apply lock: only the tool can hold it, and a holder is named', () => {
  let db: TestDb;
  beforeEach(async () => {
    db = await freshDatabase(plainServers(), 'ownlock');
    expect(
      (await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: projectDir(ACCOUNTS_MANIFEST) })).code,
    ).toBe(0);
  });

  it('a role that may only connect holds the old advisory key, a reader of the history locks its tables: the apply goes on, and neither can take the lock', async () => {
    const low = await hostileRole(plainServers(), db);
    await db.query(
      `GRANT USAGE ON SCHEMA citus_migrate TO ${low.role}; GRANT SELECT ON ALL TABLES IN SCHEMA citus_migrate TO ${low.role}`,
    );
    const squatter = await connect(urlAs(db, low.role));
    const reader = await connect(urlAs(db, low.role));
    try {
      await squatter.query(
        "SELECT pg_catalog.pg_advisory_lock(pg_catalog.hashtext('citus-migrate'), pg_catalog.hashtext(pg_catalog.current_database()))",
      );
      await reader.query(
        'BEGIN; LOCK TABLE citus_migrate.apply_lock, citus_migrate.applies, citus_migrate.object_state IN ACCESS SHARE MODE',
      );
      const r = await cli(['apply', '--database', db.url, '--auto-approve', '--wait', '2s'], {
        cwd: projectDir(ADD_COLUMN),
      });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/^Applied 1 step in/);
      await expect(squatter.query('SELECT FROM citus_migrate.apply_lock FOR UPDATE')).rejects.toThrow(
        'permission denied for table apply_lock',
      );
      await expect(
        squatter.query('BEGIN; LOCK TABLE citus_migrate.apply_lock IN ROW SHARE MODE; ROLLBACK'),
      ).rejects.toThrow('permission denied for table apply_lock');
    } finally {
      await squatter.end();
      await reader.end();
    }
  });

  it('names the session that holds it (role, application, backend, since when); --wait still bounds the wait', async () => {
    const holder = await holdApplyLock(db, { applicationName: 'nightly-etl' });
    try {
      const pid = (await holder.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
      const before = await catalogSnapshot(db, { history: true });
      const r = await cli(['apply', '--database', db.url, '--auto-approve', '--wait', '1s', '--format', 'json'], {
        cwd: projectDir(ADD_COLUMN),
      });
      expect(r.code).toBe(6);
      expect(JSON.parse(r.stdout).error.code).toBe('lock_wait');
      const who = `backend ${pid} (role postgres, application "nightly-etl", in a transaction since `;
      expect(r.stderr).toContain(`waiting up to 1s for the apply lock, held by ${who}`);
      expect(r.stderr).toContain(`error: the apply lock (citus_migrate.apply_lock) is still held after 1s by ${who}`);
      expect(r.stderr).toContain('; nothing was done');
      expect(await catalogSnapshot(db, { history: true })).toBe(before);
    } finally {
      await holder.end();
    }
  });

  it('ends with the apply: held while it runs, free once SIGINT has stopped it, and the next apply takes it at once', async () => {
    const blocker = await connect(db.url);
    await blocker.query('BEGIN; LOCK TABLE accounts IN ACCESS EXCLUSIVE MODE');
    const { child, done } = startCli(['apply', '--database', db.url, '--auto-approve', '--lock-timeout', '60s'], {
      cwd: projectDir(ADD_COLUMN),
    });
    try {
      expect(
        await pollCount(
          db,
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'citus-migrate' AND wait_event_type = 'Lock'",
          (n) => n > 0,
        ),
      ).toBe(true);
      expect(await db.query(APPLY_LOCK_HOLDERS)).toEqual([{ n: 1 }]);
      child.kill('SIGINT');
      const res = await done;
      expect(res.code, res.stderr).toBe(130);
      expect(await pollCount(db, APPLY_LOCK_HOLDERS, (n) => n === 0)).toBe(true);
    } finally {
      await blocker.end();
    }
    const next = await cli(['apply', '--database', db.url, '--auto-approve', '--wait', '1s'], {
      cwd: projectDir(ADD_COLUMN),
    });
    expect(next.code, next.stderr).toBe(0);
  });
});

// A function a plan's step calls (as a column default) that waits until the test lets it go,
// whatever lock_timeout the apply sets: the apply is then inside its transaction for as long as
// the test needs to put an obstacle in place for what follows COMMIT.
const GATE_FUNCTION = `CREATE FUNCTION public.gate() RETURNS integer LANGUAGE plpgsql SET lock_timeout = 0 AS $$
  BEGIN PERFORM pg_catalog.pg_advisory_lock_shared(4242); PERFORM pg_catalog.pg_advisory_unlock_shared(4242); RETURN 1; END $$`;
const GATE_WAITING =
  "SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND objid = 4242";

/** Holds the gate shut; `open()` lets the apply's step finish. */
async function closedGate(db: TestDb): Promise<{ open(): Promise<void> }> {
  const c = await connect(db.url);
  await c.query('SELECT pg_catalog.pg_advisory_lock(4242)');
  return { open: () => c.end() };
}

/** Whether backend `pid` still holds a granted ACCESS EXCLUSIVE lock on `relation`. */
const stillHolds = async (db: TestDb, pid: number, relation: string): Promise<boolean> =>
  (
    await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_locks WHERE pid = ${pid} AND granted AND mode = 'AccessExclusiveLock' AND relation = '${relation}'::regclass`,
    )
  )[0]!.n === 1;

// (60 s each: an apply that never gives up fails here rather than hanging the run.)
describe('every wait ends within --lock-timeout, saying what ran out and whether anything was committed', () => {
  let db: TestDb;
  let obstacle: pg.Client;
  let obstaclePid: number;
  beforeEach(async () => {
    db = await freshDatabase(plainServers(), 'ownwait');
    expect(
      (await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: projectDir(ACCOUNTS_MANIFEST) })).code,
    ).toBe(0);
    obstacle = await connect(db.url, 'obstacle');
    obstaclePid = (await obstacle.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
  });
  afterEach(async () => {
    await obstacle.end();
  });

  it('the history table locked by an idle transaction: the apply returns after --lock-timeout, names the holder, nothing was applied', async () => {
    await obstacle.query('BEGIN; LOCK TABLE citus_migrate.applies IN ACCESS EXCLUSIVE MODE');
    const r = await cli(
      ['apply', '--database', db.url, '--auto-approve', '--lock-timeout', '2s', '--wait', '3s', '--format', 'json'],
      { cwd: projectDir(ADD_COLUMN) },
    );
    expect(await stillHolds(db, obstaclePid, 'citus_migrate.applies')).toBe(true);
    expect(r.code, r.stderr).toBe(6);
    expect(JSON.parse(r.stdout).error).toMatchObject({ code: 'own_state_lock_timeout', committed: false });
    expect(r.stderr).toMatch(
      new RegExp(
        `--lock-timeout \\(2s\\) ran out while [^:]+ in citus_migrate\\.applies: a table of citus_migrate is locked by backend ${obstaclePid} \\(role postgres, application "obstacle", in a transaction since [^)]+; AccessExclusiveLock on citus_migrate\\.applies\\); the plan's transaction did not start: nothing was applied`,
      ),
    );
    await obstacle.query('ROLLBACK');
    expect(
      await db.query("SELECT count(*)::int AS n FROM information_schema.columns WHERE column_name = 'note'"),
    ).toEqual([{ n: 0 }]);
  }, 60_000);

  it('the history table locked right after COMMIT: exit 8, the transaction COMMITTED, recording it ran out of --lock-timeout', async () => {
    await db.query(`INSERT INTO accounts VALUES (1, 'a'); ${GATE_FUNCTION}`);
    const gate = await closedGate(db);
    // gate() is VOLATILE: computed for every row, the new column rewrites accounts (allowed).
    const run = cli(
      [
        'apply',
        '--database',
        db.url,
        '--auto-approve',
        '--lock-timeout',
        '2s',
        '--retries',
        '0',
        '--allow-hazards',
        'rewrites_table',
      ],
      {
        cwd: projectDir(
          ACCOUNTS_MANIFEST.replace('name: text }', 'name: text, y: { type: integer, default: "gate()" } }'),
        ),
      },
    );
    expect(await pollCount(db, GATE_WAITING, (n) => n > 0)).toBe(true);
    await obstacle.query('BEGIN; LOCK TABLE citus_migrate.applies IN ACCESS EXCLUSIVE MODE');
    await gate.open();
    const r = await run;
    expect(await stillHolds(db, obstaclePid, 'citus_migrate.applies')).toBe(true);
    expect(r.code, r.stderr).toBe(8);
    expect(r.stderr).toContain(
      `error: the transaction COMMITTED (its step ran) and planning again is empty, but recording it failed: --lock-timeout (2s) ran out while recording the outcome of apply #2 (applied) in citus_migrate.applies: a table of citus_migrate is locked by backend ${obstaclePid} (role postgres, application "obstacle"`,
    );
    expect(r.stderr).toContain('Apply #2 still says running.');
    await obstacle.query('ROLLBACK');
    expect(await db.query("SELECT count(*)::int AS n FROM information_schema.columns WHERE column_name = 'y'")).toEqual(
      [{ n: 1 }],
    );
  }, 60_000);

  it('the verification read blocked after COMMIT: exit 8, the transaction COMMITTED and only verifying failed, recorded as verify_failed', async () => {
    // A generated column: reading the catalog prints its expression, which locks the table.
    await db.query(
      `CREATE TABLE t (id bigint NOT NULL PRIMARY KEY, g bigint GENERATED ALWAYS AS (id * 2) STORED); INSERT INTO t VALUES (1); ${GATE_FUNCTION}`,
    );
    const gate = await closedGate(db);
    const run = cli(
      [
        'apply',
        '--database',
        db.url,
        '--auto-approve',
        '--lock-timeout',
        '2s',
        '--retries',
        '0',
        '--allow-hazards',
        'rewrites_table',
        '--format',
        'json',
      ],
      {
        cwd: projectDir(
          `${ACCOUNTS_MANIFEST}  t:\n    local: true\n    columns: { id: { type: bigint, not_null: true }, g: { type: bigint, generated: "id * 2" }, y: { type: integer, default: "gate()" } }\n    primary_key: [id]\n`,
        ),
      },
    );
    expect(await pollCount(db, GATE_WAITING, (n) => n > 0)).toBe(true);
    // Queued behind the apply's own lock on t: it has t the moment the apply commits.
    const queued = obstacle.query('BEGIN; LOCK TABLE t IN ACCESS EXCLUSIVE MODE');
    expect(
      await pollCount(
        db,
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'obstacle' AND wait_event_type = 'Lock'",
        (n) => n > 0,
      ),
    ).toBe(true);
    await gate.open();
    await queued;
    const r = await run;
    expect(await stillHolds(db, obstaclePid, 'public.t')).toBe(true);
    expect(r.code, r.stderr).toBe(8);
    expect(JSON.parse(r.stdout).error).toMatchObject({ code: 'verify_failed', committed: true, historyId: 2 });
    expect(r.stderr).toContain(
      `error: the transaction COMMITTED (its step ran); only verifying it failed: reading the catalog again waited longer than --lock-timeout (2s): canceling statement due to lock timeout; ACCESS EXCLUSIVE locks are held by backend ${obstaclePid} (role postgres, application "obstacle"`,
    );
    expect(r.stderr).toContain(
      'The changes are in place; run `citus-migrate plan` to check that planning again is empty. Recorded as apply #2 (committed_not_converged).',
    );
    expect(
      await db.query<{ outcome: string; code: string; committed: boolean }>(
        "SELECT outcome, error->>'code' AS code, (error->>'committed')::boolean AS committed FROM citus_migrate.applies WHERE id = 2",
      ),
    ).toEqual([{ outcome: 'committed_not_converged', code: 'verify_failed', committed: true }]);
    await obstacle.query('ROLLBACK');
    expect(
      await db.query(
        "SELECT count(*)::int AS n FROM information_schema.columns WHERE table_name = 't' AND column_name = 'y'",
      ),
    ).toEqual([{ n: 1 }]);
  }, 60_000);
});
