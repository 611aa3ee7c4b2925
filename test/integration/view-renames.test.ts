// `-- renamed_from:` above a view or materialized view of a sql: file, against a real server: the
// view is renamed in place, so a role's grant on it, its comment, a view that reads it and a
// materialized view's rows stay; --prove proves it, and the next plan is empty.
import { describe, expect, it } from 'vitest';
import { freshDatabase, plainServers, sql } from '../support/db.js';
import { projectDir } from '../support/project.js';
import { cli } from '../support/run-cli.js';

const server = plainServers();
const all = ['--auto-approve', '--allow-hazards', 'all'];
const MANIFEST = `version: 1
tables:
  items: { columns: { id: { type: bigint, not_null: true }, name: text }, primary_key: [id] }
sql: [views.sql]
`;

describe('view renames', () => {
  it('a view and a materialized view renamed: the grant given by hand, the comment, a dependent view and the rows kept', async () => {
    const db = await freshDatabase(server, 'view_rename');
    const before = projectDir({
      'citus-migrate.yaml': MANIFEST,
      'views.sql': `CREATE VIEW item_names AS SELECT id, name FROM items;
CREATE MATERIALIZED VIEW item_stats AS SELECT count(*) AS n FROM items;
COMMENT ON VIEW item_names IS 'names';
`,
    });
    expect((await cli(['apply', '--database', db.url, ...all], { cwd: before })).code).toBe(0);
    await sql(server, 'postgres', ['DROP ROLE IF EXISTS cm_view_reader', 'CREATE ROLE cm_view_reader']);
    await db.query(`INSERT INTO items VALUES (1, 'a'), (2, 'b'); REFRESH MATERIALIZED VIEW item_stats;
      GRANT SELECT ON item_names TO cm_view_reader;
      CREATE VIEW report AS SELECT count(*) AS n FROM item_names`);
    const after = projectDir({
      'citus-migrate.yaml': MANIFEST,
      'views.sql': `-- renamed_from: item_names
CREATE VIEW item_labels AS SELECT id, name FROM items;
-- renamed_from: item_stats
CREATE MATERIALIZED VIEW item_counts AS SELECT count(*) AS n FROM items;
COMMENT ON VIEW item_labels IS 'names';
`,
    });
    const p = await cli(['plan', '--database', db.url, '--prove'], { cwd: after });
    expect(p.code, p.stdout + p.stderr).toBe(0);
    expect(p.stdout).toContain('rename view public.item_names to item_labels (its grants and dependents kept)');
    expect(p.stdout).toContain('rename materialized view public.item_stats to item_counts');
    expect(p.stdout).not.toMatch(/create (again )?(materialized )?view/);
    const r = await cli(['apply', '--database', db.url, ...all], { cwd: after });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('verified: planning again is empty');
    expect(
      await db.query(`SELECT (SELECT n FROM item_counts)::int AS rows, (SELECT n FROM report)::int AS report,
        has_table_privilege('cm_view_reader', 'item_labels', 'SELECT') AS granted,
        obj_description('item_labels'::regclass) AS comment, to_regclass('item_names') IS NULL AS old_gone`),
    ).toEqual([{ rows: 2, report: 2, granted: true, comment: 'names', old_gone: true }]);
    expect((await cli(['plan', '--database', db.url, '--detailed-exitcode'], { cwd: after })).code).toBe(0);
  });
});
