// What the history records when an apply does not simply succeed: committed but not converged
// (verification after COMMIT found steps left), and interrupted (SIGINT/SIGTERM: the server's
// work is cancelled and rolled back before the CLI exits).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { freshDatabase, plainServers, type TestDb } from '../support/db.js';
import { cli } from '../support/run-cli.js';

const MANIFEST = `version: 1
tables:
  accounts:
    local: true
    columns: { id: { type: bigint, not_null: true }, name: text }
    primary_key: [id]
`;

function project(manifest = MANIFEST): string {
  const dir = mkdtempSync(join(tmpdir(), 'cm-outcome-'));
  writeFileSync(join(dir, 'citus-migrate.yaml'), manifest);
  return dir;
}

const outcomes = async (db: TestDb): Promise<unknown[]> =>
  db.query('SELECT outcome, error IS NOT NULL AS has_error FROM citus_migrate.applies ORDER BY id');

describe('apply outcomes in the history', () => {
  let db: TestDb;
  beforeEach(async () => {
    db = await freshDatabase(plainServers(), 'outcome');
  });

  it('records committed_not_converged (not success) when planning again after COMMIT is not empty', async () => {
    // An event trigger changes the table inside the apply's own transaction: the COMMIT keeps a
    // default the manifest does not declare, so verification finds a step left.
    await db.query(`CREATE FUNCTION cm_drift() RETURNS event_trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF EXISTS (SELECT FROM pg_event_trigger_ddl_commands() WHERE command_tag = 'CREATE TABLE'
            AND object_identity = 'public.accounts') THEN
          ALTER TABLE public.accounts ALTER COLUMN name SET DEFAULT 'drift';
        END IF;
      END $$;
      CREATE EVENT TRIGGER cm_drift ON ddl_command_end EXECUTE FUNCTION cm_drift()`);
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
});
