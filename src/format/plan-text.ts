// The plan as a readable terminal summary: one line per step with its hazards.
import { proofLine } from '../plan/proof.js';
import { formatProblem } from '../errors.js';
import { lockText } from '../plan/lock-estimate.js';
import type { PlanDocument, PlanStep } from '../plan/plan.js';
import type { Phase } from '../plan/steps/steps.js';
import { plural } from '../util/plural.js';
import { notManagedLines } from '../model/not-managed.js';
import { planHeadline } from './plan-headline.js';
import { visible } from '../util/visible.js';
import { NO_COLOR, type Palette } from '../util/color.js';

/** A line already escaped (and coloured): written as it is. */
interface Shown {
  readonly shown: string;
}
type Line = string | Shown;

// Keyed by the Phase type: a new phase without a title is a compile error.
const PHASE_TITLE: { readonly [P in Phase]: string } = {
  schemas: 'Schemas',
  sequences: 'Sequences',
  tables: 'Tables',
  routines: 'Routines',
  reference_tables: 'Reference and citus-local tables',
  schema_distribution: 'Distributed schemas',
  time_partitions: 'Time partitions',
  colocation_anchors: 'Colocation group anchors',
  colocation_members: 'Colocated tables',
  foreign_keys: 'Foreign keys',
  cleanup: 'Clean-up after copying',
  routine_distribution: 'Routine distribution (delegation)',
  undistribute: 'Undistribute',
  prune: 'Prune (objects the manifest does not declare)',
  after_commit: 'After COMMIT',
  drop_objects: 'Dropped first: objects to be created again, keys and foreign keys prune drops; partitions detached',
  renames: 'Renames (renamed_from): rows kept',
  types: 'Extensions and types',
  objects: 'Views, indexes, constraints, triggers, policies, comments',
  prune_types: 'Prune types and extensions',
  prune_schemas: 'Prune schemas',
  event_triggers: 'Event triggers (last: each fires on the DDL after it)',
};

/** `~1.2M rows, 85 MB` from the planner's estimates. */
export function sizeText(size: { rows: number; bytes: number }): string {
  const rows =
    size.rows >= 1e6
      ? `${(size.rows / 1e6).toFixed(1)}M`
      : size.rows >= 1e3
        ? `${(size.rows / 1e3).toFixed(1)}k`
        : String(size.rows);
  return `~${rows} rows, ${bytesText(size.bytes)}`;
}

/** `85 MB`, `1.2 GB`, `12 kB`. */
export function bytesText(bytes: number): string {
  const mb = bytes / 1048576;
  return mb >= 1024
    ? `${(mb / 1024).toFixed(1)} GB`
    : mb >= 1
      ? `${mb.toFixed(0)} MB`
      : `${Math.ceil(bytes / 1024)} kB`;
}

function stepLines(steps: readonly PlanStep[], width: number, p: Palette): Line[] {
  const out: Line[] = [];
  let phase: Phase | undefined;
  for (const s of steps) {
    if (s.phase !== phase) {
      phase = s.phase;
      // Under "After COMMIT, outside the transaction:" already.
      if (phase !== 'after_commit') out.push(`  ${PHASE_TITLE[phase]}`);
    }
    // Escaped first, coloured after: no colour code comes from a name.
    const hazards = s.hazards.length ? `  ${p.yellow(visible(`[${s.hazards.join(', ')}]`))}` : '';
    out.push({
      shown: `${visible(`    ${String(s.index).padStart(width)}. ${s.summary}`)}${hazards}${s.size ? visible(`  (${sizeText(s.size)})`) : ''}`,
    });
    const indent = ' '.repeat(width + 6);
    // What it holds while it works through the rows, and about how long.
    if (s.lock) out.push({ shown: p.dim(visible(`${indent}${lockText(s.lock, bytesText)}`)) });
    // What a replaced body or a definition created again changes, under its step.
    for (const l of s.diff ?? []) {
      const shown = visible(`${indent}${l}`);
      out.push({ shown: l.startsWith('-') ? p.red(shown) : l.startsWith('+') ? p.green(shown) : p.dim(shown) });
    }
  }
  return out;
}

/** The headline, green when nothing is to do, red with problems. */
function headline(plan: PlanDocument, p: Palette): Shown {
  const text = visible(planHeadline(plan));
  return { shown: plan.problems.length > 0 ? p.red(text) : plan.changes ? p.bold(text) : p.green(text) };
}

/** Renders the plan as text; `p` colours hazards, the headline, problems and warnings (a terminal). */
export function formatPlanText(plan: PlanDocument, p: Palette = NO_COLOR): string {
  const source =
    plan.source.kind === 'offline'
      ? `offline, ${plan.source.description}`
      : `live cluster, state ${plan.source.fingerprint.slice(0, 12)}`;
  const lines: Line[] = [`Plan for ${plan.manifest.file} (${source})`];
  if (plan.problems.length > 0 || !plan.changes) lines.push(headline(plan, p));
  const all = [...plan.transaction.steps, ...plan.afterCommit];
  if (plan.changes) {
    const hz = plan.hazards.map((h) => `${h} (${all.filter((s) => s.hazards.includes(h)).length})`);
    lines.push({
      shown: `${visible(`${plural(plan.transaction.steps.length, 'step')} in one transaction${plan.afterCommit.length ? `, ${plan.afterCommit.length} after COMMIT` : ''}`)}${hz.length ? `; hazards: ${p.yellow(visible(hz.join(', ')))}` : `; ${p.green('no hazards')}`}`,
    });
    lines.push('');
    const width = String(all.length).length;
    lines.push(...stepLines(plan.transaction.steps, width, p));
    if (plan.afterCommit.length > 0) {
      lines.push('', '  After COMMIT, outside the transaction:', ...stepLines(plan.afterCommit, width, p));
    }
  }
  if (plan.problems.length > 0)
    lines.push(
      '',
      { shown: p.red(p.bold('Problems:')) },
      ...plan.problems.map((x) => `  ${x.where ? `${x.where}: ` : ''}${x.object}: ${x.message}`),
    );
  if (plan.unmanaged.length > 0)
    lines.push(
      '',
      `Unmanaged (in the cluster, not in the manifest; left alone): ${plan.unmanaged.length}`,
      ...plan.unmanaged.slice(0, 20).map((u) => `  ${u}`),
      ...(plan.unmanaged.length > 20 ? [`  … and ${plan.unmanaged.length - 20} more`] : []),
    );
  if (plan.notManaged.length > 0) {
    lines.push(
      '',
      `Not managed by citus-migrate (in the cluster, never compared): ${plan.notManaged.length}`,
      ...notManagedLines(plan.notManaged).map((l) => `  ${l}`),
    );
  }
  if (plan.proof) lines.push('', proofLine(plan.proof));
  if (plan.warnings.length > 0)
    lines.push('', { shown: p.yellow('Warnings:') }, ...plan.warnings.map((w) => `  ${formatProblem(w)}`));
  // Each line's text is escaped on its own: a newline inside a name cannot start a line of its own.
  return `${lines.map((l) => (typeof l === 'string' ? visible(l) : l.shown)).join('\n')}\n`;
}
