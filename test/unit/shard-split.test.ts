// A shard count raised online by splitting shards (plan/shard-split.ts): the even split Citus's
// create_distributed_table makes (its bounds as a live cluster showed them for 4 and 8 shards),
// the splits that refine one into another, and why a rise cannot be made so.
import { describe, expect, it } from 'vitest';
import { evenSplit, onlineShardSplit, splitsBetween } from '../../src/plan/shard-split.js';
import type { ClusterModel } from '../../src/model/types.js';

describe('the even split', () => {
  it("is Citus's: 4 and 8 shards as create_distributed_table made them", () => {
    expect(evenSplit(4).map(([a, b]) => `${a}..${b}`)).toEqual([
      '-2147483648..-1073741825',
      '-1073741824..-1',
      '0..1073741823',
      '1073741824..2147483647',
    ]);
    expect(evenSplit(8).map(([, b]) => String(b))).toEqual([
      '-1610612737',
      '-1073741825',
      '-536870913',
      '-1',
      '536870911',
      '1073741823',
      '1610612735',
      '2147483647',
    ]);
  });

  it('4 → 8 splits each shard at its middle; 32 → 128 each into 4; 32 → 96 is not a refinement', () => {
    expect(splitsBetween(4, 8)![0]).toEqual({ min: '-2147483648', max: '-1073741825', points: ['-1610612737'] });
    const s = splitsBetween(32, 128)!;
    expect(s).toHaveLength(32);
    expect(s.every((x) => x.points.length === 3)).toBe(true);
    expect(splitsBetween(32, 96)).toBeUndefined();
    expect(splitsBetween(32, 16)).toBeUndefined();
  });
});

describe('an online rise of the shard count', () => {
  const model = (pk: boolean): ClusterModel =>
    ({
      tables: {
        'public.a': {
          id: 'public.a',
          distribution: { kind: 'hash', column: 'k', group: 'g' },
          ...(pk ? { primaryKey: {} } : {}),
        },
        'public.b': { id: 'public.b', distribution: { kind: 'hash', column: 'k', group: 'g' } },
      },
      groups: { g: { name: 'g', shardCount: 32, members: ['public.a', 'public.b'] } },
      objects: {
        'replica identity public.b': {
          kind: 'replica identity',
          parent: 'relation public.b',
          create: ['ALTER TABLE public.b REPLICA IDENTITY FULL'],
        },
      },
    }) as unknown as ClusterModel;
  const table = { schema: 'public', name: 'a' };

  it('splits the group, every table of it (block_writes needs no replica identity)', () => {
    const step = onlineShardSplit(table, 64, 'g', model(false));
    expect(step).toMatchObject({ kind: 'split_shards', from: 32, to: 64, members: 2 });
  });

  it('says why not: a count that is no refinement, fewer shards', () => {
    expect(onlineShardSplit(table, 48, 'g', model(true))).toContain('48 shards do not split each of 32 evenly');
    expect(onlineShardSplit(table, 16, 'g', model(true))).toContain('Citus merges no shards');
  });
});
