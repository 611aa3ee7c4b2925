// Citus's alter_distributed_table (a shard count change) drops the views over the table, and the
// views over those (here views the manifest leaves alone), and creates them again without their grants and comments: the plan's step
// gives them back in the same transaction, so the apply converges and verifies (it used to
// commit, then fail verification with committed_not_converged).
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

describe.skipIf(!citus)('what Citus recreates comes back', () => {
  it("a shard count change: the views' grants and comments are given back in the step, the apply verifies, the next plan is empty", async () => {
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
  t: { distributed_by: w, shard_count: 8, columns: { w: bigint, id: bigint }, primary_key: [w, id] }
`,
    });
    const plan = await cli(['plan', '--database', db.url], { cwd: dir });
    expect(plan.stderr).toBe('');
    expect(plan.stdout).toMatch(
      /rewrite public\.t with 8 shards .*; gives back what Citus drops with the views it recreates: comment on column public\.v\.w, comment on view public\.v, privileges .*/,
    );
    const r = await cli(['apply', '--database', db.url, '--auto-approve', '--allow-hazards', 'rewrites_table'], {
      cwd: dir,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('verified: planning again is empty');
    expect(await state()).toEqual(before);
    expect(
      await db.query("SELECT shard_count::int AS shard_count FROM citus_tables WHERE table_name = 't'::regclass"),
    ).toEqual([{ shard_count: 8 }]);
    const again = await cli(['plan', '--database', db.url, '--format', 'json'], { cwd: dir });
    const next = JSON.parse(again.stdout) as { transaction: { steps: unknown[] }; afterCommit: unknown[] };
    expect([next.transaction.steps, next.afterCommit]).toEqual([[], []]);
  });
});
