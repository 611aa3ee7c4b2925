// DEPENDS ON EXTENSION on Citus (objects/extension-dependency.ts): Citus 13.2 takes it on the
// index of a distributed or reference table and on a materialized view, and refuses it on a
// distributed function ("distrtibuted functions are not allowed to depend on an extension"): one
// the files declare on a routine the manifest distributes is a plan problem at its line, nothing
// runs; the others apply and the next plan is empty.
import { describe, expect, it } from 'vitest';
import { citusServers, firstError, freshDatabase } from '../support/db.js';
import { schemaDump } from '../support/dump.js';
import { projectDir } from '../support/project.js';
import { cli } from '../support/run-cli.js';

const citus = citusServers();

const MANIFEST = `version: 1
sql: [ext.sql, deps.sql]
routines:
  app.f: { file: f.sql, distributed_by: $1, colocate_with: app.t }
tables:
  app.t: { distributed_by: id, shard_count: 4, columns: { id: { type: integer, not_null: true }, x: integer }, indexes: [{ name: t_x, columns: [x] }] }
  app.r: { reference: true, columns: { id: { type: integer, not_null: true } }, indexes: [{ name: r_id, columns: [id] }] }
`;

describe.skipIf(!citus)('DEPENDS ON EXTENSION on Citus', () => {
  it('Citus refuses it on a distributed function (pinned): a plan problem at its line; on indexes of Citus tables and a materialized view it applies', async () => {
    const db = await freshDatabase(citus!, 'cextdep');
    // The fact: a distributed function may not depend on an extension.
    expect(
      await firstError(db.url, [
        'CREATE EXTENSION IF NOT EXISTS citext',
        'CREATE FUNCTION public.g(integer) RETURNS integer LANGUAGE sql AS $$SELECT $1$$',
        "SELECT create_distributed_function('public.g(integer)')",
        'ALTER FUNCTION public.g(integer) DEPENDS ON EXTENSION citext',
      ]),
    ).toContain('distrtibuted functions are not allowed to depend on an extension');
    await db.query('DROP FUNCTION public.g(integer)');

    const files = {
      'citus-migrate.yaml': MANIFEST,
      'ext.sql': 'CREATE EXTENSION IF NOT EXISTS citext;\nCREATE MATERIALIZED VIEW app.m AS SELECT id FROM app.r;\n',
      'f.sql': 'CREATE FUNCTION app.f(integer) RETURNS integer LANGUAGE sql AS $$SELECT $1$$;\n',
      'deps.sql':
        'ALTER INDEX app.t_x DEPENDS ON EXTENSION citext;\nALTER INDEX app.r_id DEPENDS ON EXTENSION citext;\nALTER MATERIALIZED VIEW app.m DEPENDS ON EXTENSION citext;\nALTER FUNCTION app.f(integer) DEPENDS ON EXTENSION citext;\n',
    };
    const before = schemaDump(db);
    const refused = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: projectDir(files) });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      'deps.sql:4:1: extension dependency of routine app.f(integer) on citext: the routine is distributed, and Citus refuses DEPENDS ON EXTENSION on a distributed function',
    );
    expect(schemaDump(db)).toBe(before);

    const dir = projectDir({ ...files, 'deps.sql': files['deps.sql'].split('\n').slice(0, 3).join('\n') + '\n' });
    const apply = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: dir });
    expect(apply.code, apply.stderr).toBe(0);
    const deps = await db.query<{ o: string }>(
      "SELECT classid::regclass::text || ' ' || objid::regclass::text AS o FROM pg_depend WHERE deptype = 'x' AND refobjid = (SELECT oid FROM pg_extension WHERE extname = 'citext') ORDER BY 1",
    );
    expect(deps.map((d) => d.o)).toEqual(['pg_class app.m', 'pg_class app.r_id', 'pg_class app.t_x']);
    const again = await cli(['plan', '--database', db.url, '--detailed-exitcode'], { cwd: dir });
    expect(again.code, again.stdout + again.stderr).toBe(0);
  });
});
