// A partition's own COMPRESSION on a column (ALTER TABLE ONLY partition … SET COMPRESSION, in a
// sql: file) on Citus, pinned: on a distributed table's partition it reaches that partition's
// shards, and a materialized view's column COMPRESSION stays on the coordinator with the view.
// The plan is empty after, and introspect reads both back.
import { describe, expect, it } from 'vitest';
import { citusServers, freshDatabase, sql } from '../support/db.js';
import { projectDir } from '../support/project.js';
import { cli } from '../support/run-cli.js';

const citus = citusServers();

describe.skipIf(!citus)("a partition's own column COMPRESSION on Citus", () => {
  it("reaches the partition's shards; a materialized view's stays with it; plan empty after", async () => {
    const db = await freshDatabase(citus!, 'pcomp');
    const dir = projectDir({
      'citus-migrate.yaml': `version: 1
sql: [sql]
tables:
  app.events:
    distributed_by: id
    partition_by: range (id)
    partitions:
      events_1: { from: "0", to: "100" }
      events_2: { from: "100", to: "200" }
    columns: { id: bigint, body: { type: text, compression: pglz } }
`,
      'sql/own.sql': `ALTER TABLE ONLY app.events_2 ALTER COLUMN body SET COMPRESSION lz4;
CREATE MATERIALIZED VIEW app.recent AS SELECT id, body FROM app.events;
ALTER MATERIALIZED VIEW app.recent ALTER COLUMN body SET COMPRESSION lz4;
`,
    });
    const r = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('verified: planning again is empty');
    const methods = await sql<{ rel: string; m: string }>(
      citus!,
      db.name,
      [
        'SET citus.override_table_visibility TO off',
        `SELECT regexp_replace(c.relname, '_[0-9]+$', '') AS rel, string_agg(DISTINCT a.attcompression::text, ',') AS m
         FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'body'
         WHERE c.relname ~ '^events_[12]_[0-9]+$' GROUP BY 1 ORDER BY 1`,
      ],
      1,
    );
    expect(methods).toEqual([
      { rel: 'events_1', m: 'p' },
      { rel: 'events_2', m: 'l' },
    ]);
    const out = projectDir({});
    expect((await cli(['introspect', '--database', db.url, '-o', 'citus-migrate.yaml'], { cwd: out })).code).toBe(0);
    const again = await cli(['plan', '--database', db.url, '--detailed-exitcode'], { cwd: out });
    expect(again.code, again.stdout).toBe(0);
  });
});
