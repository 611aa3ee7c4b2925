// The plan as Markdown, ready to paste as a pull-request comment.
import type { PlanDocument } from '../plan/plan.js';
import { formatPlanSql } from './plan-sql.js';

function cell(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/[\r\n]+/g, ' ').replace(/`/g, '\\`');
}

/** Renders the plan as Markdown. */
export function formatPlanMarkdown(plan: PlanDocument): string {
  const all = [...plan.transaction.steps, ...plan.afterCommit];
  const out = [`### citus-migrate plan: \`${cell(plan.manifest.file)}\``, ''];
  if (!plan.changes) out.push('**No changes**: the cluster matches the manifest.');
  else {
    out.push(`**${all.length} step(s)**${plan.hazards.length ? `, hazards: ${plan.hazards.map((h) => `\`${h}\``).join(', ')}` : ', no hazards'}.`, '');
    out.push('| # | Phase | Step | Hazards |', '|---:|---|---|---|');
    for (const s of all) out.push(`| ${s.index} | ${s.phase} | ${cell(s.summary)} | ${s.hazards.map((h) => `\`${h}\``).join(' ')} |`);
  }
  if (plan.problems.length > 0) out.push('', '**Problems**', '', ...plan.problems.map((p) => `- ${cell(p.object)}: ${cell(p.message)}`));
  if (plan.warnings.length > 0) out.push('', '**Warnings**', '', ...plan.warnings.map((w) => `- \`${cell(w.path)}\`: ${cell(w.message)}`));
  if (plan.changes) {
    const sql = formatPlanSql(plan);
    const fence = sql.includes('```') ? '~~~~' : '```';
    out.push('', '<details><summary>SQL</summary>', '', `${fence}sql`, sql.trimEnd(), fence, '', '</details>');
  }
  return `${out.join('\n')}\n`;
}
