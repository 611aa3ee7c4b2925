// Partitions of partitions on a Citus coordinator. Citus refuses multi-level partitioning on its
// tables in every form (pinned here: docs/citus-facts.md), so the manifest refuses a Citus table
// with a partitioned partition (unit: partitions-of-partitions.test.ts); a local table partitioned
// on two levels beside distributed tables is adopted, applied to an empty database, proved, and
// planned empty again, its key and index copied down each level.
import { describe, expect, it } from 'vitest';
import { citusServers, firstError, freshDatabase } from '../support/db.js';
import { adoptAndRebuild } from '../support/adopt-rebuild.js';

const citus = citusServers();

describe.skipIf(!citus)('partitions of partitions on Citus', () => {
  it('Citus refuses multi-level partitioning for distributed, reference and citus-local tables', async () => {
    const db = await freshDatabase(citus!, 'multilevel_facts');
    const tree = (t: string): string[] => [
      `CREATE TABLE ${t} (tenant int, at date, region text) PARTITION BY RANGE (at)`,
      `CREATE TABLE ${t}_2024 PARTITION OF ${t} FOR VALUES FROM ('2024-01-01') TO ('2025-01-01') PARTITION BY LIST (region)`,
      `CREATE TABLE ${t}_2024_eu PARTITION OF ${t}_2024 FOR VALUES IN ('eu')`,
    ];
    expect(await firstError(db.url, [...tree('a'), "SELECT create_distributed_table('a', 'tenant')"])).toBe(
      'distributing multi-level partitioned tables is not supported',
    );
    expect(await firstError(db.url, [...tree('b'), "SELECT create_reference_table('b')"])).toBe(
      'distributing partitioned tables in only supported for hash-distributed tables',
    );
    expect(await firstError(db.url, [...tree('c'), "SELECT citus_add_local_table_to_metadata('c')"])).toBe(
      'Citus does not support multi-level partitioned tables',
    );
    // Nor later: a partitioned partition of a table already distributed.
    expect(
      await firstError(db.url, [
        'CREATE TABLE d (tenant int, at date, region text) PARTITION BY RANGE (at)',
        "SELECT create_distributed_table('d', 'tenant')",
        "CREATE TABLE d_2024 PARTITION OF d FOR VALUES FROM ('2024-01-01') TO ('2025-01-01') PARTITION BY LIST (region)",
      ]),
    ).toBe('distributing multi-level partitioned tables is not supported');
  });

  it('a local table partitioned on two levels beside a distributed one: adopted, built again, planned empty', async () => {
    const original = await freshDatabase(citus!, 'multilevel_o');
    for (const s of [
      'CREATE TABLE accounts (id bigint PRIMARY KEY)',
      "SELECT create_distributed_table('accounts', 'id', shard_count => 4)",
      'CREATE TABLE sales (id bigint NOT NULL, region text NOT NULL, sold date NOT NULL, PRIMARY KEY (id, sold, region)) PARTITION BY RANGE (sold)',
      "CREATE TABLE sales_2024 PARTITION OF sales FOR VALUES FROM ('2024-01-01') TO ('2025-01-01') PARTITION BY LIST (region)",
      "CREATE TABLE sales_2024_eu PARTITION OF sales_2024 FOR VALUES IN ('eu')",
      'CREATE TABLE sales_2024_rest PARTITION OF sales_2024 DEFAULT',
      'CREATE INDEX sales_region ON sales (region)',
    ])
      await original.query(s);
    const { proved } = await adoptAndRebuild(citus!, original, 'multilevel_c');
    expect(proved).toContain('create partitioned partition public.sales_2024 of public.sales');
    expect(proved).toContain('create partition public.sales_2024_eu of public.sales_2024');
  });
});
