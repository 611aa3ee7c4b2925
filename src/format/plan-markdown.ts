// The plan as Markdown, ready to paste as a pull-request comment.
import { sizeText } from './plan-text.js';
import type { PlanDocument } from '../plan/plan.js';
import { notManagedLines } from './not-managed.js';
import { planHeadline } from './plan-headline.js';
import { formatPlanSql } from './plan-sql.js';

function cell(text: string): string {
  return text
    .replace(/\\/g, '\\\\')
    .replace(/\|/g, '\\|')
    .replace(/[\r\n]+/g, ' ')
    .replace(/`/g, '\\`');
}

/** Renders the plan as Markdown. */
export function formatPlanMarkdown(plan: PlanDocument): string {
  const all = [...plan.transaction.steps, ...plan.afterCommit];
  const out = [`### citus-migrate plan: \`${cell(plan.manifest.file)}\``, ''];
  out.push(`**${cell(planHeadline(plan))}**`);
  if (plan.changes) {
    out.push(`Hazards: ${plan.hazards.length ? plan.hazards.map((h) => `\`${h}\``).join(', ') : 'none'}.`, '');
    out.push('| # | Phase | Step | Hazards |', '|---:|---|---|---|');
    for (const s of all)
      out.push(
        `| ${s.index} | ${s.phase} | ${cell(s.summary)} | ${s.hazards.map((h) => `\`${h}\``).join(' ')}${s.size ? ` (${sizeText(s.size)})` : ''} |`,
      );
  }
  if (plan.problems.length > 0)
    out.push('', '**Problems**', '', ...plan.problems.map((p) => `- ${cell(p.object)}: ${cell(p.message)}`));
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
  if (plan.warnings.length > 0)
    out.push('', '**Warnings**', '', ...plan.warnings.map((w) => `- \`${cell(w.path)}\`: ${cell(w.message)}`));
  if (plan.changes) {
    const sql = formatPlanSql(plan);
    const fence = sql.includes('```') ? '~~~~' : '```';
    out.push('', '<details><summary>SQL</summary>', '', `${fence}sql`, sql.trimEnd(), fence, '', '</details>');
  }
  return `${out.join('\n')}\n`;
}
