// The plan as a script `psql -v ON_ERROR_STOP=1 -f` runs as it is: one transaction.
import type { PlanDocument, PlanStep } from '../plan/plan.js';

function commentLine(text: string): string {
  return `-- ${text.replace(/[\r\n]+/g, ' ')}`;
}

function stepBlock(s: PlanStep): string {
  const head = commentLine(`[${s.index}] ${s.summary}${s.hazards.length ? ` (hazards: ${s.hazards.join(', ')})` : ''}`);
  return [head, ...s.sql.map((stmt) => `${stmt};`)].join('\n');
}

/** The statements alone (no header comment): what scenario tests compare. */
export function planBodySql(plan: PlanDocument): string {
  const parts = !plan.changes ? ['-- no changes'] : [
    [`${plan.transaction.begin};`, ...plan.transaction.preamble.map((s) => `${s};`)].join('\n'),
    ...plan.transaction.steps.map(stepBlock),
    `${plan.transaction.commit};`,
    ...plan.afterCommit.map(stepBlock),
  ];
  const problems = plan.problems.map((p) => commentLine(`problem: ${p.object}: ${p.message}`));
  const unmanaged = plan.unmanaged.map((u) => commentLine(`unmanaged: ${u}`));
  return `${[...parts, ...(problems.length ? [problems.join('\n')] : []), ...(unmanaged.length ? [unmanaged.join('\n')] : [])].join('\n\n')}\n`;
}

/** Renders the plan as SQL. */
export function formatPlanSql(plan: PlanDocument): string {
  const source = plan.source.kind === 'offline' ? `offline: ${plan.source.description}` : `live state ${plan.source.fingerprint.slice(0, 12)}`;
  const header = [
    commentLine(`${plan.tool.name} ${plan.tool.version} plan for ${plan.manifest.file} (${source})`),
    commentLine(`${plan.transaction.steps.length + plan.afterCommit.length} step(s); run with: psql -v ON_ERROR_STOP=1 -f <this file>`),
  ];
  if (!plan.changes) return `${[...header, commentLine('no changes: the cluster matches the manifest')].join('\n')}\n`;
  const parts = [
    header.join('\n'),
    [`${plan.transaction.begin};`, ...plan.transaction.preamble.map((s) => `${s};`)].join('\n'),
    ...plan.transaction.steps.map(stepBlock),
    `${plan.transaction.commit};`,
  ];
  if (plan.afterCommit.length > 0) {
    parts.push(commentLine('The steps below cannot run inside a transaction; each runs on its own after COMMIT.'));
    parts.push(...plan.afterCommit.map(stepBlock));
  }
  if (plan.problems.length > 0) parts.push(plan.problems.map((p) => commentLine(`problem: ${p.object}: ${p.message}`)).join('\n'));
  if (plan.unmanaged.length > 0) parts.push(plan.unmanaged.map((u) => commentLine(`unmanaged (left alone): ${u}`)).join('\n'));
  return `${parts.join('\n\n')}\n`;
}
