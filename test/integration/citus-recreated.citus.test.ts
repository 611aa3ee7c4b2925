// Citus functions that rebuild a table (alter_distributed_table for a shard count change,
// undistribute_table, alter_table_set_access_method) drop the views over the table, and the views
// over those (here views the manifest leaves alone), and create them again without their grants
// and comments: the plan's step gives them back in the same transaction, so the apply converges
// and verifies (it used to commit, then fail verification with committed_not_converged).
import { describe, expect, it } from 'vitest';
import { citusServers, freshDatabase } from '../support/db.js';
import { projectDir } from '../support/project.js';
import { cli } from '../support/run-cli.js';

const citus = citusServers();

const VIEWS = (reader: string): string => `CREATE VIEW public.v WITH (security_barrier) AS SELECT w, id FROM public.t;
CREATE VIEW public.v2 AS SELECT w FROM public.v;
GRANT SELECT ON public.v TO ${reader};
GRANT SELECT (w) ON public.v2 TO ${reader};
COMMENT ON VIEW public.v IS 'the view';
COMMENT ON COLUMN public.v.w IS 'the warehouse';
`;

// Each Citus function that rebuilds the table: alter_distributed_table (a shard count change),
// undistribute_table (the table made local), alter_table_set_access_method (made columnar).
const CASES = [
  {
    change: 'a shard count change',
    table: 'distributed_by: w, shard_count: 8',
    summary:
      /rewrite public\.t with 8 shards .*; gives back what Citus drops with the views it recreates: comment on column public\.v\.w, comment on view public\.v, privileges .*/,
    hazards: 'rewrites_table',
    after: "SELECT shard_count::int AS n FROM citus_tables WHERE table_name = 't'::regclass",
    expected: [{ n: 8 }],
  },
  {
    change: 'undistribute_table',
    table: 'local: true',
    summary:
      /undistribute public\.t.*; gives back what Citus drops with the views it recreates: comment on column public\.v\.w, comment on view public\.v, privileges .*/,
    hazards: 'all',
    after: "SELECT count(*)::int AS n FROM pg_dist_partition WHERE logicalrelid = 't'::regclass",
    expected: [{ n: 0 }],
  },
  {
    change: 'alter_table_set_access_method (columnar)',
    table: 'distributed_by: w, shard_count: 4, access_method: columnar',
    summary:
      /columnar.*; gives back what Citus drops with the views it recreates: comment on column public\.v\.w, comment on view public\.v, privileges .*/,
    hazards: 'all',
    after: "SELECT a.amname AS n FROM pg_class c JOIN pg_am a ON a.oid = c.relam WHERE c.relname = 't'",
    expected: [{ n: 'columnar' }],
  },
];

describe.skipIf(!citus)('what Citus recreates comes back', () => {
  it.each(CASES)(
    "$change: the views' grants and comments are given back in the step, the apply verifies, the next plan is empty",
    async (c) => {
      const db = await freshDatabase(citus!, 'recreated');
      const reader = `${db.name}_reader`;
      const owner = `${db.name}_owner`;
      await db.query(`CREATE ROLE ${reader}; CREATE ROLE ${owner};
      CREATE TABLE t (w bigint NOT NULL, id bigint NOT NULL, PRIMARY KEY (w, id));
      SELECT create_distributed_table('t', 'w', shard_count => 4);
      INSERT INTO t SELECT g % 10, g FROM generate_series(1, 100) g;
      GRANT SELECT ON t TO ${owner};
      ${VIEWS(reader)}
      ALTER VIEW v2 OWNER TO ${owner}`);
      const state = (): Promise<unknown[]> =>
        db.query(`SELECT c.relname, c.relacl::text[] AS acl, pg_get_userbyid(c.relowner) AS owner, c.reloptions,
        obj_description(c.oid, 'pg_class') AS comment, col_description(c.oid, 1) AS w_comment
        FROM pg_class c WHERE c.relname IN ('v', 'v2') ORDER BY 1`);
      const before = await state();
      // The views are not the manifest's (left alone): only Citus drops them.
      const dir = projectDir({
        'citus-migrate.yaml': `version: 1
tables:
  t: { ${c.table}, columns: { w: bigint, id: bigint }, primary_key: [w, id] }
`,
      });
      const plan = await cli(['plan', '--database', db.url], { cwd: dir });
      expect(plan.stderr).toBe('');
      expect(plan.stdout).toMatch(c.summary);
      const r = await cli(['apply', '--database', db.url, '--auto-approve', '--allow-hazards', c.hazards], {
        cwd: dir,
      });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('verified: planning again is empty');
      expect(await state()).toEqual(before);
      expect(await db.query(c.after)).toEqual(c.expected);
      const again = await cli(['plan', '--database', db.url, '--format', 'json'], { cwd: dir });
      const next = JSON.parse(again.stdout) as { transaction: { steps: unknown[] }; afterCommit: unknown[] };
      expect([next.transaction.steps, next.afterCommit]).toEqual([[], []]);
    },
  );
});
