// renamed_from on a real coordinator + 2 workers: a distributed table and its colocated member, the
// distribution column, an index and a reference table renamed in place. Citus renames every shard
// (and the shards' indexes) on the workers, the rows stay, colocation and the foreign key between
// the colocated tables hold, and the next plan is empty.
import { describe, expect, it } from 'vitest';
import { citusServers, freshDatabase, sql } from '../support/db.js';
import { projectDir } from '../support/project.js';
import { cli } from '../support/run-cli.js';

const citus = citusServers();

describe.skipIf(!citus)('renames on Citus', () => {
  it('tables, the distribution column, a foreign key column and an index renamed: rows, shards, colocation kept', async () => {
    const db = await freshDatabase(citus!, 'renames');
    for (const sql of [
      'CREATE TABLE users (w bigint NOT NULL, id bigserial, email text, PRIMARY KEY (w, id))',
      'CREATE INDEX users_email ON users (email)',
      "SELECT create_distributed_table('users', 'w', shard_count => 4)",
      'CREATE TABLE orders (w bigint NOT NULL, id bigint NOT NULL, uid bigint, PRIMARY KEY (w, id))',
      "SELECT create_distributed_table('orders', 'w', colocate_with => 'users')",
      'ALTER TABLE orders ADD CONSTRAINT orders_user FOREIGN KEY (w, uid) REFERENCES users (w, id)',
      "INSERT INTO users (w, email) SELECT g % 10, 'e' || g FROM generate_series(1, 1000) g",
      'INSERT INTO orders SELECT g % 10, g, g FROM generate_series(1, 1000) g',
      'CREATE TABLE countries (code text PRIMARY KEY, name text)',
      "SELECT create_reference_table('countries')",
      "INSERT INTO countries VALUES ('fr', 'France')",
    ])
      await db.query(sql);
    const dir = projectDir(`version: 1
colocation:
  tenants: { shard_count: 4 }
tables:
  accounts:
    renamed_from: users
    distributed_by: tenant
    colocation: tenants
    columns:
      tenant: { type: bigint, not_null: true, renamed_from: w }
      id: { type: bigserial }
      email_address: { type: text, renamed_from: email }
    primary_key: [tenant, id]
    indexes: [{ name: accounts_email, columns: [email_address], renamed_from: users_email }]
  orders:
    distributed_by: tenant
    colocation: tenants
    columns:
      tenant: { type: bigint, not_null: true, renamed_from: w }
      id: { type: bigint, not_null: true }
      account_id: { type: bigint, renamed_from: uid }
    primary_key: [tenant, id]
    foreign_keys: [{ name: orders_user, columns: [tenant, account_id], references: accounts, ref_columns: [tenant, id] }]
  lands:
    renamed_from: countries
    reference: true
    columns: { code: text, label: { type: text, renamed_from: name } }
    primary_key: [code]
`);
    const plan = await cli(['plan', '--database', db.url, '--format', 'json'], { cwd: dir });
    const steps = (JSON.parse(plan.stdout) as { transaction: { steps: { kind: string }[] }; afterCommit: unknown[] })
      .transaction.steps;
    expect(steps.map((s) => s.kind)).toEqual([
      'rename_table',
      'rename_table',
      'rename_column',
      'rename_column',
      'rename_index',
      'rename_column',
      'rename_column',
      'rename_column',
      'rename_sequence',
    ]);
    const r = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('verified: planning again is empty');
    expect(
      await db.query(
        "SELECT (SELECT count(*)::int FROM accounts a JOIN orders o ON o.tenant = a.tenant AND o.account_id = a.id) AS joined, (SELECT label FROM lands) AS label, (SELECT count(DISTINCT colocation_id)::int FROM citus_tables WHERE table_name IN ('accounts'::regclass, 'orders'::regclass)) AS groups, (SELECT distribution_column FROM citus_tables WHERE table_name = 'accounts'::regclass) AS column",
      ),
    ).toEqual([{ joined: 1000, label: 'France', groups: 1, column: 'tenant' }]);
    // Every shard (and its index) carries the new name on the workers.
    for (let n = 1; n < citus!.nodes.length; n++)
      expect(
        await sql(
          citus!,
          db.name,
          [
            'SET citus.override_table_visibility TO off',
            "SELECT count(*) FILTER (WHERE relname ~ '^accounts_email_[0-9]+$')::int AS ix, count(*) FILTER (WHERE relname ~ '^accounts_[0-9]+$')::int AS shards, count(*) FILTER (WHERE relname ~ '^users_[0-9]+$')::int AS old FROM pg_class",
          ],
          n,
        ),
      ).toEqual([{ ix: 2, shards: 2, old: 0 }]);
    // The serial's sequence follows its table (on every node: Citus renames a distributed sequence too).
    expect(await db.query("INSERT INTO accounts (tenant, email_address) VALUES (1, 'new') RETURNING id")).toEqual([
      { id: '1001' },
    ]);
    for (let n = 1; n < citus!.nodes.length; n++)
      expect(
        await sql(
          citus!,
          db.name,
          "SELECT relname FROM pg_class WHERE relkind = 'S' AND relname IN ('accounts_id_seq', 'users_id_seq') ORDER BY 1",
          n,
        ),
      ).toEqual([{ relname: 'accounts_id_seq' }]);
    expect((await cli(['plan', '--database', db.url, '--detailed-exitcode'], { cwd: dir })).code).toBe(0);
  });

  it('a view over a distributed table renamed by `-- renamed_from:` is renamed on the workers too (Citus propagates ALTER VIEW … RENAME)', async () => {
    const db = await freshDatabase(citus!, 'view_renames');
    const project = (views: string): string =>
      projectDir({
        'citus-migrate.yaml': `version: 1
tables:
  orders: { distributed_by: w, shard_count: 4, columns: { w: bigint, id: bigint }, primary_key: [w, id] }
sql: [views.sql]
`,
        'views.sql': views,
      });
    const first = await cli(['apply', '--database', db.url, '--auto-approve'], {
      cwd: project('CREATE VIEW order_ids AS SELECT w, id FROM orders;\n'),
    });
    expect(first.code, first.stderr).toBe(0);
    const dir = project('-- renamed_from: order_ids\nCREATE VIEW order_keys AS SELECT w, id FROM orders;\n');
    const r = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout + r.stderr).toContain('rename view public.order_ids to order_keys');
    for (let n = 0; n < citus!.nodes.length; n++)
      expect(
        await sql(citus!, db.name, "SELECT viewname FROM pg_views WHERE viewname LIKE 'order%' ORDER BY 1", n),
      ).toEqual([{ viewname: 'order_keys' }]);
    expect((await cli(['plan', '--database', db.url, '--detailed-exitcode'], { cwd: dir })).code).toBe(0);
  });
});
