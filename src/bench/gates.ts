// The gates a bench run must pass, evaluated on its report: pure, so each rule is unit-tested.
import { plural } from '../util/plural.js';
import { NAMED_STATEMENT_ERRORS } from './pooler.js';
import type { BenchReport } from './report.js';

export interface Gates {
  readonly minTps?: number;
  readonly maxP95?: number;
  /** A rate (0.01 = 1%); undefined: any error fails the run. */
  readonly maxErrorRate?: number;
  /** With a baseline: the largest allowed drop of TPS (0.1 = 10%). */
  readonly maxRegression?: number;
}

export interface GateResult {
  /** One line per failed gate. */
  readonly failures: readonly string[];
  /** The comparison with the baseline, when there is one. */
  readonly comparison?: string;
}

/** Evaluates the gates on a report (and a baseline report, named `baselineName`). */
export function evaluateGates(
  report: BenchReport,
  gates: Gates,
  baseline?: { name: string; report: BenchReport },
): GateResult {
  const failures: string[] = [];
  const total = report.total;
  if (gates.minTps !== undefined && total.tps < gates.minTps) {
    failures.push(`TPS ${total.tps.toFixed(1)} is below --min-tps ${gates.minTps}`);
  }
  if (gates.maxP95 !== undefined && total.latencyMs.p95 > gates.maxP95) {
    failures.push(`p95 ${total.latencyMs.p95} ms is above --max-p95 ${gates.maxP95} ms`);
  }
  const errs = Object.values(total.errors).reduce((s, x) => s + x, 0);
  const rate = errs / Math.max(1, errs + total.transactions);
  const lost = Object.keys(total.errors).filter((c) => NAMED_STATEMENT_ERRORS[c]);
  if (lost.length) {
    failures.push(
      `${lost.map((c) => `${c} (${NAMED_STATEMENT_ERRORS[c]})`).join(', ')}: named prepared statements were lost between transactions; a pooler in transaction mode that bench did not detect? Set protocol: simple on the SELECT workloads, or connect directly`,
    );
  }
  if (gates.maxErrorRate === undefined && errs > 0) {
    failures.push(
      `${plural(errs, 'error')} (${(rate * 100).toFixed(2)}% of ${errs + total.transactions} transactions); allow errors with --max-error-rate`,
    );
  }
  if (gates.maxErrorRate !== undefined && rate > gates.maxErrorRate) {
    failures.push(
      `error rate ${(rate * 100).toFixed(2)}% is above --max-error-rate ${(gates.maxErrorRate * 100).toFixed(2)}%`,
    );
  }
  if (!baseline) return { failures };
  const base = baseline.report.total;
  const ratio = total.tps / Math.max(1e-9, base.tps);
  const comparison = `compared with ${baseline.name}: TPS ${total.tps.toFixed(1)} vs ${base.tps.toFixed(1)} (${ratio.toFixed(2)}x), p95 ${total.latencyMs.p95} vs ${base.latencyMs.p95} ms\n`;
  if (gates.maxRegression !== undefined && ratio < 1 - gates.maxRegression) {
    failures.push(
      `TPS regressed to ${(ratio * 100).toFixed(1)}% of the baseline (allowed: a drop of ${(gates.maxRegression * 100).toFixed(1)}%)`,
    );
  }
  return { failures, comparison };
}
