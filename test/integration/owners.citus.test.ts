// Owners on Citus (objects/owner-objects.ts): Citus 13.2 propagates ALTER … OWNER TO of a
// distributed table to its shards, of a reference table to its placements, and of a schema, type
// and distributed function to every worker (pinned here, the owners read on each worker): the
// plan gives them on the coordinator only, the workers end as the coordinator, the next plan is
// empty, and a drift on the coordinator is given back everywhere.
import { describe, expect, it } from 'vitest';
import { citusServers, freshDatabase, sql } from '../support/db.js';
import { projectDir } from '../support/project.js';
import { cli } from '../support/run-cli.js';

const citus = citusServers();

const role = (name: string): string =>
  `DO $$BEGIN CREATE ROLE ${name}; EXCEPTION WHEN duplicate_object THEN NULL; END$$`;

/** Each owned object's owner on one node: the shards' (and placements') by their table's name. */
const OWNERS = [
  'SET citus.override_table_visibility TO off',
  `SELECT 'schema' AS what, nspowner::regrole::text AS owner FROM pg_namespace WHERE nspname = 'app'
   UNION ALL SELECT 'type', typowner::regrole::text FROM pg_type WHERE oid = 'app.e'::regtype
   UNION ALL SELECT 'function', proowner::regrole::text FROM pg_proc WHERE oid = 'app.f(integer)'::regprocedure
   UNION ALL SELECT DISTINCT regexp_replace(relname, '_[0-9]+$', ''), relowner::regrole::text FROM pg_class
     WHERE relnamespace = 'app'::regnamespace AND relkind = 'r'
   ORDER BY 1`,
];

describe.skipIf(!citus)('owners on Citus', () => {
  it('Citus propagates every owner the plan gives to the shards and workers; a drift is given back everywhere', async () => {
    const db = await freshDatabase(citus!, 'cowners');
    const [a, b] = [`coa_${db.name}`, `cob_${db.name}`];
    for (const node of citus!.nodes.keys()) await sql(citus!, db.name, [role(a), role(b)], node);
    const dir = projectDir({
      'citus-migrate.yaml': `version: 1
sql: [types.sql, owners.sql]
routines:
  app.f: { file: f.sql, distributed_by: $1, colocate_with: app.t }
tables:
  app.t: { distributed_by: id, shard_count: 4, columns: { id: { type: integer, not_null: true }, e: app.e } }
  app.r: { reference: true, columns: { id: { type: integer, not_null: true } } }
`,
      'types.sql': "CREATE TYPE app.e AS ENUM ('x', 'y');\n",
      'f.sql': 'CREATE FUNCTION app.f(integer) RETURNS integer LANGUAGE sql AS $$SELECT $1$$;\n',
      'owners.sql': `ALTER SCHEMA app OWNER TO ${b};
ALTER TABLE app.t OWNER TO ${a};
ALTER TABLE app.r OWNER TO ${b};
ALTER TYPE app.e OWNER TO ${a};
ALTER FUNCTION app.f(integer) OWNER TO ${b};
`,
    });
    const apply = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: dir });
    expect(apply.code, apply.stderr).toBe(0);
    const expected = [
      { what: 'function', owner: b },
      { what: 'r', owner: b },
      { what: 'schema', owner: b },
      { what: 't', owner: a },
      { what: 'type', owner: a },
    ];
    const everywhere = async (): Promise<void> => {
      for (const node of citus!.nodes.keys()) {
        const rows = await sql<{ what: string; owner: string }>(citus!, db.name, OWNERS, node);
        expect(rows, `node ${node}`).toEqual(expected);
      }
    };
    await everywhere();
    const plan = () => cli(['plan', '--database', db.url, '--detailed-exitcode'], { cwd: dir });
    expect((await plan()).code).toBe(0);

    // Someone gives the distributed table to another role: a difference, given back on every node.
    await db.query(`ALTER TABLE app.t OWNER TO ${b}`);
    const drift = await plan();
    expect(drift.code).toBe(2);
    expect(drift.stdout).toContain(`give relation app.t to ${a}`);
    const back = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: dir });
    expect(back.code, back.stderr).toBe(0);
    await everywhere();
    expect((await plan()).code).toBe(0);
  });
});
