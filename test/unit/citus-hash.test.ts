// worker_hash computed without a database: the values Citus 13.2's worker_hash() gave on a live
// cluster (the integration test of tenant isolation compares more, on the cluster itself).
import { describe, expect, it } from 'vitest';
import { workerHash } from '../../src/model/citus-hash.js';

describe('workerHash', () => {
  it('is worker_hash of smallint, integer and bigint values', () => {
    const small: [string, number][] = [
      ['0', -272711505],
      ['1', -1905060026],
      ['-1', 385747274],
      ['5', -1330264708],
      ['42', 1509752520],
      ['1001', 956988848],
      ['32767', 1289782602],
      ['-32768', 193646934],
    ];
    for (const [v, h] of small)
      for (const type of ['smallint', 'integer', 'bigint']) expect(workerHash(v, type), `${v}::${type}`).toBe(h);
    const big: [string, number][] = [
      ['2147483647', -96758253],
      ['-2147483648', -1524351049],
      ['4294967296', -1905060026],
      ['-4294967297', -1242090879],
      ['9223372036854775807', -1524351049],
      ['-9223372036854775808', -96758253],
      ['123456789012', 1645134813],
    ];
    for (const [v, h] of big) expect(workerHash(v, 'bigint'), v).toBe(h);
  });

  it('has no hash for other types, nor for a value out of the type', () => {
    expect(workerHash('acme', 'text')).toBeUndefined();
    expect(workerHash('40000', 'smallint')).toBeUndefined();
    expect(workerHash('1.5', 'integer')).toBeUndefined();
  });
});
