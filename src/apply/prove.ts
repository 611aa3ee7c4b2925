// `plan --prove`: before anything touches the database, the plan runs in full on a copy of it
// without rows. The copy is the database as introspect reads it, built by the tool's own apply
// in a scratch database on the same server or cluster (with Citus on every node) or on the one
// --prove-on names; then the plan shown runs there, the transaction and the steps after COMMIT,
// as apply runs them; then the copy is planned again. On a copy that plans as the database does,
// a refusal or a plan that does not converge becomes a plan problem (plan/proof.ts). The scratch
// database is dropped whatever happens (but an interrupted process leaves it: its name says whose).
import { CmError, EXIT } from '../errors.js';
import { withClient, type ConnectionTarget } from '../db/connect.js';
import { readLiveState } from '../own/live-state.js';
import { liveToProject } from '../introspect/to-manifest.js';
import { loadManifestText, type LoadedManifest } from '../manifest/load.js';
import { memoryFs } from '../manifest/memory-fs.js';
import { planLive } from '../plan/from-manifest.js';
import type { PlanDocument, PlanStep } from '../plan/plan.js';
import { HAZARDS } from '../plan/steps/steps.js';
import { APPLY_SESSION_PINS } from '../plan/pinned-settings.js';
import { proofProblems, type PlanProof } from '../plan/proof.js';
import type { DiffProblem } from '../plan/problem.js';
import { withManifestPaths } from '../plan/problem-places.js';
import type { LiveState } from '../model/live-state.js';
import { executePlan } from './execute.js';
import { recordsAfter } from '../own/object-state.js';
import { ApplyError } from './failure.js';
import { runApply } from './run.js';
import { createScratchDatabase } from './scratch-database.js';
import { publisherStep, withoutPublisherSteps, withoutSubscriptions } from './prove-subscriptions.js';

const COPY_DIR = '/citus-migrate-prove-copy';

/** The database as introspect writes it, loaded from memory: what the scratch copy is built from. */
export async function copyManifest(live: LiveState): Promise<LoadedManifest> {
  const project = liveToProject(withoutSubscriptions(live), { files: true });
  return loadManifestText(project.manifest, 'citus-migrate.yaml', COPY_DIR, memoryFs(COPY_DIR, project.files));
}

const stepKey = (s: PlanStep): string => `${s.summary}\n${s.sql.join('\n')}`;
const stepsOf = (p: PlanDocument): PlanStep[] => [...p.transaction.steps, ...p.afterCommit];

/** The steps one plan has and the other does not, either way (their summaries). */
function differingSteps(withThem: PlanDocument, other: PlanDocument): string[] {
  // (subscriptions are not on the copy: apply/prove-subscriptions.ts)
  const [a, b] = [withoutPublisherSteps(withThem), withoutPublisherSteps(other)];
  const inA = new Set(stepsOf(a).map(stepKey));
  const inB = new Set(stepsOf(b).map(stepKey));
  const odd = [...stepsOf(a), ...stepsOf(b)].filter((s) => !(inA.has(stepKey(s)) && inB.has(stepKey(s))));
  return [...new Set(odd.map((s) => s.summary))];
}

const planOpts = (plan: PlanDocument): { online: boolean } => ({ online: plan.options?.online ?? false });

/**
 * Proves `plan` (made from `m` against `live`) on a scratch copy at `at` (the plan's own server,
 * or --prove-on's). Resolves to the proof; the plan's problems are the caller's to extend with
 * proofProblems. Throws a CmError when no proof could be made (no scratch database, no copy).
 */
export async function provePlan(
  at: ConnectionTarget,
  live: LiveState,
  m: LoadedManifest,
  plan: PlanDocument,
  /** Called once the scratch database exists, with what drops it (a signal handler's way to end the proof at once). */
  onScratch?: (drop: () => Promise<string[]>) => void,
): Promise<PlanProof> {
  const t0 = performance.now();
  const copy = await copyManifest(live);
  const scratch = await createScratchDatabase(at);
  onScratch?.(scratch.drop);
  let found: Omit<PlanProof, 'leftBehind' | 'ms'>;
  try {
    found = await proveOn(scratch.target, live, copy, m, plan);
  } catch (e) {
    const left = await scratch.drop();
    if (left.length === 0 || !(e instanceof CmError)) throw e;
    throw new CmError(
      `${e.message}; and its scratch database ${scratch.name} could not be dropped on: ${left.join('; ')}`,
      e.code,
      e.exitCode,
      e.meta,
    );
  }
  // Dropped whatever happened; what could not be is said, never left silently.
  const leftBehind = await scratch.drop();
  return { ...found, leftBehind, ms: Math.round(performance.now() - t0) };
}

/** The objects of kinds not managed (so not copied) that a refusal's message names. */
function lacking(live: LiveState, message: string): { lacks?: string[] } {
  const named = (live.doc.notManaged ?? []).filter((x) => {
    // (an operator class or family is named with its method: `app.ops USING btree`)
    const bare = x.name.replace(/ USING \S+$/, '').replace(/"/g, '');
    return message.includes(`"${bare}"`) || message.includes(`"${bare.split('.').pop()!}"`);
  });
  return named.length > 0 ? { lacks: named.map((x) => `${x.kind} ${x.name}`) } : {};
}

/** Builds the copy in the scratch database, runs the plan there, and plans again. */
async function proveOn(
  scratch: ConnectionTarget,
  live: LiveState,
  copy: LoadedManifest,
  m: LoadedManifest,
  plan: PlanDocument,
): Promise<Omit<PlanProof, 'leftBehind' | 'ms'>> {
  // The copy is built and committed; where it then differs from what introspect read (Citus
  // distributes a function a table's default uses, which the database kept local), it is
  // proved on as it is, and the difference is said with the proof.
  const builtAs = await runApply(scratch, copy, { allowHazards: HAZARDS, waitMs: 60_000 }).then(
    (): string[] => [],
    (e: unknown): string[] => {
      const meta = e instanceof CmError ? (e.meta as { remaining?: string[]; problems?: string[] }) : {};
      if (e instanceof CmError && e.code === 'not_converged')
        return [...(meta.remaining ?? []), ...(meta.problems ?? [])].map((x) => `the copy as built: ${x}`);
      throw new CmError(
        `--prove could not build a copy of the database in ${scratch.label}, so nothing was proved: ${(e as Error).message}`,
        'prove_copy_failed',
        EXIT.error,
      );
    },
  );
  // What earlier applies recorded of the database's SQL definitions holds for the copy's (the same
  // server prints them back the same); the copy's own records are of introspect's text.
  const asRecorded = ({ recorded: _, ...copyLive }: LiveState): LiveState =>
    live.recorded === undefined ? copyLive : { ...copyLive, recorded: live.recorded };
  return withClient(scratch, async (client) => {
    const copyPlan = planLive(m, asRecorded(await readLiveState(client)), m.file, planOpts(plan));
    const copyDiffers = [...builtAs, ...differingSteps(plan, copyPlan)];
    await client.query(APPLY_SESSION_PINS.join(';\n'));
    const run = withoutPublisherSteps(plan);
    const ran = stepsOf(run).length;
    const notRun = stepsOf(plan).length - ran;
    const base = { scratch: scratch.label, copyDiffers, ran, ...(notRun > 0 ? { notRun } : {}) };
    try {
      await executePlan(client, run, {
        lockTimeoutMs: 5000,
        statementTimeoutMs: 0,
        retries: 3,
        rehearse: false,
        onRetry: () => undefined,
        // (a variable unset: its placeholder is the copy's value, which the plan then does not compare)
        env: m.env,
      });
    } catch (e) {
      if (!(e instanceof ApplyError)) throw e;
      const step = stepsOf(plan).find((s) => s.index === e.stepIndex);
      const refused = {
        step: e.stepIndex,
        summary: e.stepSummary,
        object: step?.object ?? 'plan',
        ...(e.server.sqlstate ? { sqlstate: e.server.sqlstate } : {}),
        message: e.server.message,
        ...lacking(live, e.server.message),
      };
      return { ...base, refused, remaining: [] };
    }
    // As apply verifies: what the plan's SQL objects became is recorded first.
    const afterLive = asRecorded(await readLiveState(client));
    const again = planLive(m, { ...afterLive, recorded: recordsAfter(plan, afterLive).out }, m.file, planOpts(plan));
    const remaining = [
      ...stepsOf(again)
        .filter((s) => !publisherStep(s))
        .map((s) => s.summary),
      ...again.problems.filter((x) => !x.object.startsWith('subscription ')).map((x) => `${x.object}: ${x.message}`),
    ];
    return { ...base, remaining };
  });
}

/** Adds the proof to the plan, and its problems (a refusal, no convergence) to the plan's. */
export function addProof(plan: PlanDocument, proof: PlanProof, m: LoadedManifest): void {
  const p = plan as { proof?: PlanProof; problems: readonly DiffProblem[] };
  p.proof = proof;
  // An object of a `sql:` file is placed at its statement; the others at their manifest key.
  const placed = proofProblems(proof).map((x) => {
    const source = m.desired.objects[x.object]?.source;
    return source !== undefined ? { ...x, where: source } : x;
  });
  p.problems = [...plan.problems, ...withManifestPaths(placed, m)];
}
