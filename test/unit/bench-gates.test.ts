// Each bench gate, on reports built here: TPS, p95, errors (any error fails unless a rate is
// allowed), named statements lost behind a pooler, and regression against a baseline.
import { describe, expect, it } from 'vitest';
import { evaluateGates } from '../../src/bench/gates.js';
import type { BenchReport } from '../../src/bench/report.js';

function report(tps: number, p95: number, transactions: number, errors: Record<string, number> = {}): BenchReport {
  const latencyMs = { min: 1, p50: 1, p95, p99: p95, max: p95 };
  const total = { name: 'total', transactions, tps, latencyMs, errors };
  return {
    format: 'citus-migrate.bench',
    formatVersion: 1,
    environment: {},
    settings: {},
    measuredSeconds: 1,
    client: { cpuSeconds: 0.1, cpuShare: 0.1, clientBound: false },
    total,
    workloads: [total],
  };
}

describe('bench gates', () => {
  it('pass a clean run with no gates', () => {
    expect(evaluateGates(report(100, 5, 100), {})).toEqual({ failures: [] });
  });

  it.each([
    ['TPS below --min-tps', report(90, 5, 90), { minTps: 100 }, 'TPS 90.0 is below --min-tps 100'],
    ['p95 above --max-p95', report(100, 12.5, 100), { maxP95: 10 }, 'p95 12.5 ms is above --max-p95 10 ms'],
    [
      'any error without --max-error-rate',
      report(100, 5, 99, { '23505': 1 }),
      {},
      '1 error (1.00% of 100 transactions); allow errors with --max-error-rate',
    ],
    [
      'an error rate above the allowed one',
      report(100, 5, 90, { '40001': 10 }),
      { maxErrorRate: 0.05 },
      'error rate 10.00% is above --max-error-rate 5.00%',
    ],
  ])('fail on %s', (_name, r, gates, message) => {
    expect(evaluateGates(r, gates).failures).toEqual([message]);
  });

  it('allow errors up to --max-error-rate', () => {
    expect(evaluateGates(report(100, 5, 96, { '40001': 4 }), { maxErrorRate: 0.05 }).failures).toEqual([]);
  });

  it('explain named prepared statements lost behind a pooler', () => {
    const { failures } = evaluateGates(report(100, 5, 90, { '26000': 10 }), { maxErrorRate: 0.5 });
    expect(failures).toEqual([
      expect.stringMatching(
        /^26000 \(prepared statement does not exist\): named prepared statements were lost between transactions/,
      ),
    ]);
  });

  it('compare with a baseline and fail past --max-regression', () => {
    const base = { name: 'base.json', report: report(200, 4, 200) };
    const ok = evaluateGates(report(190, 5, 190), { maxRegression: 0.1 }, base);
    expect(ok).toEqual({
      failures: [],
      comparison: 'compared with base.json: TPS 190.0 vs 200.0 (0.95x), p95 5 vs 4 ms\n',
    });
    expect(evaluateGates(report(150, 5, 150), { maxRegression: 0.1 }, base).failures).toEqual([
      'TPS regressed to 75.0% of the baseline (allowed: a drop of 10.0%)',
    ]);
  });
});
