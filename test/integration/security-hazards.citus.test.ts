// On Citus, a lower role's code that distributing a table would run with the applier's rights:
// the copy of its rows into the shards re-checks its CHECK constraints on the workers, and
// truncate_local_data_after_distributing_table fires its TRUNCATE triggers on the coordinator
// (its INSERT triggers are paused for the copy). The lower role plants its functions on every
// node; without --allow-hazards runs_foreign_code the apply refuses (exit 4) and nothing runs.
import { describe, expect, it } from 'vitest';
import { citusServers, freshDatabase, sql } from '../support/db.js';
import { hostileRole } from '../support/hostile.js';
import { projectDir } from '../support/project.js';
import { cli } from '../support/run-cli.js';

const citus = citusServers();

describe.skipIf(!citus)('runs_foreign_code on Citus', () => {
  it('distributing a table whose CHECK and TRUNCATE trigger call the lower role’s functions is refused; allowed, they run on the workers', async () => {
    const db = await freshDatabase(citus!, 'shc');
    const low = await hostileRole(citus!, db);
    // Harmless while the table is set up (its rows are checked as they go in), a trap after.
    const functions = (body: (returns: string) => string) => [
      `CREATE OR REPLACE FUNCTION public.chk(a integer) RETURNS boolean LANGUAGE plpgsql AS $$${body('true')}$$`,
      `CREATE OR REPLACE FUNCTION public.on_write() RETURNS trigger LANGUAGE plpgsql AS $$${body('NULL')}$$`,
    ];
    await low.runEverywhere(functions((returns) => `BEGIN RETURN ${returns}; END`));
    await db.query(`CREATE TABLE public.t (id bigint PRIMARY KEY, x integer CONSTRAINT x_ok CHECK (public.chk(x)));
      INSERT INTO public.t SELECT g, g FROM generate_series(1, 20) g;
      CREATE TRIGGER t_ins BEFORE INSERT ON public.t FOR EACH ROW EXECUTE FUNCTION public.on_write();
      CREATE TRIGGER t_trunc BEFORE TRUNCATE ON public.t FOR EACH STATEMENT EXECUTE FUNCTION public.on_write()`);
    await low.runEverywhere(functions(low.trapBody));
    expect(await low.breaches()).toEqual([]);
    const dir = projectDir(`version: 1
tables:
  t: { distributed_by: id, columns: { id: { type: bigint, not_null: true }, x: integer }, primary_key: [id] }
`);
    const plan = await cli(['plan', '--database', db.url], { cwd: dir });
    expect(plan.stdout).toContain(
      `copies its rows into the shards; runs ${low.role}'s code: check constraint public.t.x_ok calls public.chk(integer)  [copies_data, runs_foreign_code]`,
    );
    expect(plan.stdout).toContain(
      `(they are in the shards now); runs ${low.role}'s code: trigger t_trunc on public.t calls public.on_write()  [runs_foreign_code]`,
    );
    // The INSERT trigger is paused for the copy: it does not run.
    expect(plan.stdout).not.toContain('trigger t_ins');

    const refused = await cli(['apply', '--database', db.url, '--auto-approve', '--allow-hazards', 'copies_data'], {
      cwd: dir,
    });
    expect(refused.code).toBe(4);
    expect(refused.stderr).toContain('runs_foreign_code: step 1 (distribute public.t by id');
    expect(refused.stderr).toContain('allow them with --allow-hazards runs_foreign_code');
    expect(
      await sql(citus!, db.name, "SELECT 1 FROM pg_dist_partition WHERE logicalrelid = 'public.t'::regclass"),
    ).toEqual([]);
    expect(await low.breaches()).toEqual([]);

    // Allowed, the same plan runs the lower role's code with the applier's rights, on the workers too.
    const allowed = await cli(
      ['apply', '--database', db.url, '--auto-approve', '--allow-hazards', 'copies_data,runs_foreign_code'],
      { cwd: dir },
    );
    expect(allowed.code).toBe(0);
    const breaches = await low.breaches();
    for (const node of [1, 2]) expect(breaches.join('\n')).toContain(`node ${node}: `);
  });
});
