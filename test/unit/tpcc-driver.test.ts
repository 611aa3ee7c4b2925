// The benchmark's TPC-C driver: reproducible draws in TPC-C's mix, and the CALL it sends.
import { describe, expect, it } from 'vitest';
import { callSql, drawTransaction, makeRng, MIX } from '../../bench/lib/tpcc-driver.mjs';

describe('tpcc driver', () => {
  it('draws the same transactions from the same seed', () => {
    const draw = (seed: number) => {
      const rng = makeRng(seed);
      return Array.from({ length: 200 }, () => drawTransaction(rng, 8));
    };
    expect(draw(7)).toEqual(draw(7));
    expect(draw(7)).not.toEqual(draw(8));
  });

  it("follows TPC-C's mix and ranges", () => {
    const rng = makeRng(1);
    const counts: Record<string, number> = {};
    for (let i = 0; i < 20_000; i++) {
      const tx = drawTransaction(rng, 8);
      counts[tx.kind] = (counts[tx.kind] ?? 0) + 1;
      expect(tx.args[0]).toBeGreaterThanOrEqual(1);
      expect(tx.args[0]).toBeLessThanOrEqual(8);
      if (tx.kind === 'new_order') {
        const lines = tx.lines!;
        expect(lines).toHaveLength(tx.args[3]!);
        expect(lines.length >= 5 && lines.length <= 15).toBe(true);
        // Stock rows are locked in item order, as the procedure does: no deadlocks between orders.
        expect(lines.map((l) => l.item)).toEqual([...lines.map((l) => l.item)].sort((a, b) => a - b));
        expect(tx.args[2]! >= 1 && tx.args[2]! <= 3000).toBe(true);
      }
    }
    for (const [kind, weight] of MIX) expect(Math.abs(counts[kind]! / 20_000 - weight / 100)).toBeLessThan(0.01);
  });

  it("calls the example's procedures with literal arguments (a bound CALL is never delegated)", () => {
    expect(callSql({ kind: 'payment', args: [3, 7, 1024, 250] })).toBe('CALL payment_tx(3, 7, 1024, 250)');
    expect(callSql({ kind: 'delivery', args: [1, 9] })).toBe('CALL delivery_tx(1, 9)');
  });
});
