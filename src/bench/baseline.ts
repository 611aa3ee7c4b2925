// A bench report saved with `bench --format json`, read back as the baseline of --compare.
import { z } from 'zod';
import { readJsonFile } from '../files/json-file.js';
import type { BenchReport } from './report.js';

const count = z.number().nonnegative();
const latency = z.looseObject({ min: count, p50: count, p95: count, p99: count, max: count });
const workload = z.looseObject({
  name: z.string(),
  transactions: count,
  tps: count,
  latencyMs: latency,
  errors: z.record(z.string(), count),
});

/** What a baseline must hold (what the gates compare, and what says it is a bench report); the rest passes through. */
export const benchReportSchema = z.looseObject({
  format: z.literal('citus-migrate.bench'),
  formatVersion: z.literal(1),
  environment: z.record(z.string(), z.unknown()),
  settings: z.record(z.string(), z.unknown()),
  measuredSeconds: count,
  client: z.looseObject({ cpuSeconds: count, cpuShare: count, clientBound: z.boolean() }),
  total: workload,
  workloads: z.array(workload),
  warnings: z.array(z.string()).optional(),
});

/** Reads a saved bench report; refuses (exit 1, invalid_baseline) a file that is not one. */
export function readBaseline(file: string, cwd: string): BenchReport {
  return readJsonFile(file, cwd, {
    schema: benchReportSchema,
    what: 'bench report',
    format: 'citus-migrate.bench',
    code: 'invalid_baseline',
  }) as BenchReport;
}
