// Picks the plan formatter for --format.
import type { PlanDocument } from '../plan/plan.js';
import { formatPlanMarkdown } from './plan-markdown.js';
import { formatPlanSql } from './plan-sql.js';
import { formatPlanText } from './plan-text.js';
import { palette } from '../util/color.js';
import type { PlanFormat } from './formats.js';

export { PLAN_FORMATS, type PlanFormat } from './formats.js';

/** Renders a plan in the given format; `color` colours text only (never SQL, JSON or markdown). */
export function formatPlan(plan: PlanDocument, format: PlanFormat, color = false): string {
  switch (format) {
    case 'text':
      return formatPlanText(plan, palette(color));
    case 'sql':
      return formatPlanSql(plan);
    case 'markdown':
      return formatPlanMarkdown(plan);
    case 'json':
      return `${JSON.stringify(plan, null, 2)}\n`;
  }
}
