// bench() of the library: the manifest's workloads run against a cluster (bench/run.ts).
import { runBenchLoad, type BenchEvent, type BenchResult, type BenchRunOptions } from '../bench/run.js';
import type { BenchReport } from '../bench/report.js';
import { benchOptionsSchema, checkOption, eventHandlerSchema, manifestInputSchema, targetSchema } from './options.js';
import { toManifest, toTarget, type DatabaseTarget, type ManifestInput } from './target.js';

export interface BenchFunctionOptions extends BenchRunOptions {
  /** A report of an earlier run (readBaseline reads one saved by `bench --format json`) to compare with. */
  readonly baseline?: { readonly name: string; readonly report: BenchReport };
}

/**
 * Runs the manifest's `bench:` workloads against the cluster at `target`: checks that each call
 * is delegated, runs the timed load and returns the report, with the gates (minTps, maxP95,
 * maxErrorRate, maxRegression against `baseline`) that failed. A call that fails, or is not
 * delegated under `requireDelegation`, rejects with BenchCheckError before the timed run.
 * Progress goes to `onEvent`: a `tick` every `tickMs` of the timed load, and `note`s.
 */
export async function bench(
  target: DatabaseTarget,
  manifest: ManifestInput,
  options: BenchFunctionOptions = {},
  onEvent?: (event: BenchEvent) => void,
): Promise<BenchResult> {
  checkOption('bench', 'target', targetSchema, target);
  checkOption('bench', 'manifest', manifestInputSchema, manifest);
  checkOption('bench', 'options', benchOptionsSchema, options);
  checkOption('bench', 'onEvent', eventHandlerSchema, onEvent);
  return runBenchLoad(toTarget(target), await toManifest(manifest), options, onEvent, options.baseline);
}
