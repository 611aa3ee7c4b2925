// What the history records when an apply does not simply succeed: committed but not converged
// (verification after COMMIT found steps left), and interrupted (SIGINT/SIGTERM: the server's
// work is cancelled and rolled back before the CLI exits).
import pg from 'pg';
import { beforeEach, describe, expect, it } from 'vitest';
import { catalogSnapshot, cliSessions, freshDatabase, plainServers, pollCount, type TestDb } from '../support/db.js';
import { startCli } from '../support/cli-process.js';
import { cli } from '../support/run-cli.js';
import { ACCOUNTS_MANIFEST, projectDir } from '../support/project.js';

const MANIFEST = ACCOUNTS_MANIFEST;

const project = (manifest = MANIFEST): string => projectDir(manifest, 'cm-outcome-');

const outcomes = async (db: TestDb): Promise<unknown[]> =>
  db.query('SELECT outcome, error IS NOT NULL AS has_error FROM citus_migrate.applies ORDER BY id');

describe('apply outcomes in the history', () => {
  let db: TestDb;
  beforeEach(async () => {
    db = await freshDatabase(plainServers(), 'outcome');
  });

  const DRIFT = `CREATE FUNCTION cm_drift() RETURNS event_trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF EXISTS (SELECT FROM pg_event_trigger_ddl_commands() WHERE command_tag = 'CREATE TABLE'
            AND object_identity = 'public.accounts') THEN
          ALTER TABLE public.accounts ALTER COLUMN name SET DEFAULT 'drift';
        END IF;
      END $$;
      CREATE EVENT TRIGGER cm_drift ON ddl_command_end EXECUTE FUNCTION cm_drift()`;

  it('records committed_not_converged (not the outcome applied) when planning again after COMMIT is not empty', async () => {
    // An event trigger changes the table inside the apply's own transaction: the COMMIT keeps a
    // default the manifest does not declare, so verification finds a step left.
    await db.query(DRIFT);
    const r = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: project() });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain('applied, but the cluster did not converge: planning again still finds 1 step');
    expect(await outcomes(db)).toEqual([{ outcome: 'committed_not_converged', has_error: true }]);
    const h = await cli(['history', '--database', db.url]);
    expect(h.stdout.split('\n')[1]).toMatch(
      /^ *1 .* committed_not_converged +1 .* applied, but the cluster did not converge: planning again still finds 1 step$/,
    );
    const json = JSON.parse((await cli(['history', '--database', db.url, '--format', 'json'])).stdout);
    expect(json[0]).toMatchObject({
      outcome: 'committed_not_converged',
      error: { code: 'not_converged', remaining: [expect.stringContaining('accounts')] },
    });
  });

  it('--rehearse verifies too, before its rollback: a transaction that would not converge fails the rehearsal, and nothing stays', async () => {
    await db.query(DRIFT);
    const before = await catalogSnapshot(db);
    const r = await cli(['apply', '--database', db.url, '--auto-approve', '--rehearse'], { cwd: project() });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain(
      'rehearsed (rolled back), but the cluster would not converge: planning again still finds 1 step',
    );
    expect(await catalogSnapshot(db)).toBe(before);
  });

  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)(
    '%s while the transaction waits: cancels the backend, rolls back, records aborted, exits %i',
    async (signal, exitCode) => {
      await db.query('CREATE TABLE blocker (x int)');
      // The apply creates accounts, then waits for blocker's lock inside its transaction: the
      // server is still working (holding what it did so far) when the signal comes.
      const cwd = project(`${MANIFEST}  blocker:\n    local: true\n    columns: { x: integer, y: text }\n`);
      const before = await catalogSnapshot(db);
      const holder = new pg.Client({ connectionString: db.url });
      await holder.connect();
      try {
        await holder.query('BEGIN; LOCK TABLE blocker IN ACCESS EXCLUSIVE MODE');
        const { child, done } = startCli(['apply', '--database', db.url, '--auto-approve', '--lock-timeout', '60s'], {
          cwd,
        });
        expect(await pollCount(db, cliSessions(true), (n) => n > 0)).toBe(true);
        child.kill(signal);
        const res = await done;
        expect([res.code, res.signal], res.stderr).toEqual([exitCode, null]);
        expect(res.stderr).toContain(`${signal}: cancelling the apply's statement on the server (backend `);
        expect(res.stderr).toContain(`error: interrupted, rolled back (${signal}): nothing was changed\n`);
        // While blocker is still locked: no session of the apply is left waiting for it.
        expect(await pollCount(db, cliSessions(), (n) => n === 0, 20)).toBe(true);
      } finally {
        await holder.query('COMMIT');
        await holder.end();
      }
      expect(await catalogSnapshot(db)).toBe(before);
      expect(await db.query('SELECT outcome, error FROM citus_migrate.applies')).toEqual([
        {
          outcome: 'aborted',
          error: {
            code: 'interrupted',
            message: `interrupted, rolled back (${signal}): nothing was changed`,
            signal,
            committed: false,
          },
        },
      ]);
    },
  );
});
