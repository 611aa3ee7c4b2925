// Partitions of partitions in the manifest (resolve-partitions.ts): a partition with its own
// partition_by and partitions, at any depth, comes out as one list, each partition after the one
// it is a partition of; its bounds follow its parent's key; PostgreSQL's and Citus's refusals are
// manifest errors at the key that causes them.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadParser } from '../../src/sql/pg-parse.js';
import { load, problems } from '../support/manifest.js';

beforeAll(loadParser);

const manifest = (layout: string, sub: string, extra = ''): string => `version: 1
${layout.includes('colocation') ? 'colocation: { g: {} }\n' : ''}tables:
  sales:
    ${layout}
    columns: { id: { type: bigint, not_null: true }, region: text, sold: date }
${extra}    partition_by: range (sold)
    partitions:
      sales_2023: { from: '2023-01-01', to: '2024-01-01' }
      sales_2024:
        from: '2024-01-01'
        to: '2025-01-01'
${sub}`;
const SUB = `        partition_by: list (region)
        partitions:
          sales_2024_eu: { in: [eu] }
          archive.sales_2024_us:
            in: [us]
            partition_by: hash (id)
            partitions:
              archive.us_0: { modulus: 2, remainder: 0 }
              archive.us_1: { modulus: 2, remainder: 1, storage_parameters: { fillfactor: 80 } }
`;

describe('partitions of partitions', () => {
  it('are one list, each after the partition it is one of, bound by that partition’s key', async () => {
    const m = await load(manifest('local: true', SUB));
    const t = m.desired.tables['public.sales']!;
    expect(t.partitions).toEqual([
      { name: 'sales_2023', bound: "FOR VALUES FROM ('2023-01-01') TO ('2024-01-01')" },
      { name: 'sales_2024', bound: "FOR VALUES FROM ('2024-01-01') TO ('2025-01-01')", partitionBy: 'LIST (region)' },
      { name: 'sales_2024_eu', of: { schema: 'public', name: 'sales_2024' }, bound: "FOR VALUES IN ('eu')" },
      {
        name: 'sales_2024_us',
        schema: 'archive',
        of: { schema: 'public', name: 'sales_2024' },
        bound: "FOR VALUES IN ('us')",
        partitionBy: 'HASH (id)',
      },
      {
        name: 'us_0',
        schema: 'archive',
        of: { schema: 'archive', name: 'sales_2024_us' },
        bound: 'FOR VALUES WITH (modulus 2, remainder 0)',
      },
      {
        name: 'us_1',
        schema: 'archive',
        of: { schema: 'archive', name: 'sales_2024_us' },
        bound: 'FOR VALUES WITH (modulus 2, remainder 1)',
        storageParameters: { fillfactor: '80' },
      },
    ]);
  });

  it('refuse what PostgreSQL refuses, at the key', async () => {
    // A bound of the parent's kind, not the partition's own.
    expect(
      await problems(
        manifest(
          'local: true',
          "        partition_by: list (region)\n        partitions:\n          x: { from: 'a', to: 'b' }\n",
        ),
      ),
    ).toEqual([
      expect.stringMatching(/partitions\.sales_2024\.partitions\.x.*`from`\/`to` does not fit PARTITION BY LIST/),
    ]);
    // Partitions without a key to bind them.
    expect(await problems(manifest('local: true', '        partitions:\n          x: { in: [eu] }\n'))).toEqual([
      expect.stringMatching(/sales_2024\.partitions.*partitions need partition_by/),
    ]);
    // The table's key must hold every level's partition columns.
    expect(await problems(manifest('local: true', SUB, '    primary_key: [id, sold]\n'))).toEqual([
      expect.stringMatching(/primary_key.*must include its partition columns \(region\)/),
    ]);
    // A partitioned partition holds no rows: no storage parameters.
    expect(
      await problems(
        manifest(
          'local: true',
          '        partition_by: list (region)\n        storage_parameters: { fillfactor: 70 }\n',
        ),
      ),
    ).toEqual([expect.stringMatching(/sales_2024.*cannot specify storage parameters for a partitioned table/)]);
  });

  it('on a Citus table are refused with the reason Citus gives', async () => {
    for (const layout of ['distributed_by: id\n    colocation: g', 'reference: true', 'citus_local: true'])
      expect(await problems(manifest(layout, SUB))).toEqual([
        expect.stringMatching(
          /tables\.sales\.partitions.*public\.sales_2024, archive\.sales_2024_us are partitioned themselves, and the table is declared (distributed|reference|citus-local): Citus refuses multi-level partitioning \("distributing multi-level partitioned tables is not supported"\)/,
        ),
      ]);
  });
});
