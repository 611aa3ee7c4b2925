// The plan as Markdown, ready to paste as a pull-request comment.
import { proofLine } from '../plan/proof.js';
import { sizeText } from './plan-text.js';
import type { PlanDocument } from '../plan/plan.js';
import { notManagedLines } from '../model/not-managed.js';
import { planHeadline } from './plan-headline.js';
import { formatPlanSql } from './plan-sql.js';
import { visible } from '../util/visible.js';

/** Text in a table cell or a list: no line breaks, no markup, no HTML (an HTML comment could hide what follows). */
function cell(text: string): string {
  return visible(text)
    .replace(/\\/g, '\\\\')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\|/g, '\\|')
    .replace(/`/g, '\\`');
}

/** A code fence longer than any run of backticks in the text, so the text cannot close it. */
export function fenceFor(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  return '`'.repeat(Math.max(3, longest + 1));
}

/** Renders the plan as Markdown. */
export function formatPlanMarkdown(plan: PlanDocument): string {
  const all = [...plan.transaction.steps, ...plan.afterCommit];
  const out = [`### citus-migrate plan: ${cell(plan.manifest.file)}`, ''];
  out.push(`**${cell(planHeadline(plan))}**`);
  if (plan.changes) {
    out.push(`Hazards: ${plan.hazards.length ? plan.hazards.map((h) => `\`${h}\``).join(', ') : 'none'}.`, '');
    out.push('| # | Phase | Step | Hazards |', '|---:|---|---|---|');
    for (const s of all)
      out.push(
        `| ${s.index} | ${s.phase} | ${cell(s.summary)} | ${s.hazards.map((h) => `\`${h}\``).join(' ')}${s.size ? ` (${sizeText(s.size)})` : ''} |`,
      );
  }
  const changed = all.filter((s) => (s.diff ?? []).length > 0);
  if (changed.length > 0) {
    out.push('', '**What changes in replaced definitions**');
    for (const s of changed) {
      const text = visible(s.diff!.join('\n'), true);
      const fence = fenceFor(text);
      out.push('', `${s.index}. ${cell(s.summary)}`, '', `${fence}diff`, text, fence);
    }
  }
  if (plan.problems.length > 0)
    out.push(
      '',
      '**Problems**',
      '',
      ...plan.problems.map((p) => `- ${p.where ? `${cell(p.where)}: ` : ''}${cell(p.object)}: ${cell(p.message)}`),
    );
  if (plan.unmanaged.length > 0)
    out.push(
      '',
      '**Unmanaged** (in the cluster, not in the manifest; left alone)',
      '',
      ...plan.unmanaged.map((u) => `- ${cell(u)}`),
    );
  if (plan.notManaged.length > 0)
    out.push(
      '',
      '**Not managed by citus-migrate** (in the cluster, never compared)',
      '',
      ...notManagedLines(plan.notManaged).map((l) => `- ${cell(l)}`),
    );
  if (plan.proof) out.push('', cell(proofLine(plan.proof)));
  if (plan.warnings.length > 0)
    out.push('', '**Warnings**', '', ...plan.warnings.map((w) => `- ${cell(w.path)}: ${cell(w.message)}`));
  if (plan.changes) {
    // Shown, not run: control and bidi characters escaped like in the text format.
    const sql = visible(formatPlanSql(plan), true);
    const fence = fenceFor(sql);
    out.push('', '<details><summary>SQL</summary>', '', `${fence}sql`, sql.trimEnd(), fence, '', '</details>');
  }
  return `${out.join('\n')}\n`;
}
