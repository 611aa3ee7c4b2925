// The plan as a script `psql -v ON_ERROR_STOP=1 -f` runs as it is: one transaction.
import type { PlanDocument, PlanStep } from '../plan/plan.js';
import { formatProblem } from '../errors.js';
import { planHeadline } from './plan-headline.js';
import { visible } from '../util/visible.js';
import { SESSION_PINS } from '../plan/pinned-settings.js';
import { secretNames, withPsqlVariables } from '../objects/user-mapping.js';
import { holdsSecrets } from '../plan/secret-steps.js';

/** A `--` comment line: a name with a newline (or a control character) cannot end it early. */
function commentLine(text: string): string {
  return `-- ${visible(text.replace(/[\r\n]+/g, ' '))}`;
}

/** A statement and its semicolon; after a newline when its last line may end in a `--` comment (user SQL). */
const terminated = (stmt: string): string =>
  stmt.slice(stmt.lastIndexOf('\n') + 1).includes('--') ? `${stmt}\n;` : `${stmt};`;

function stepBlock(s: PlanStep): string {
  const head = commentLine(`[${s.index}] ${s.summary}${s.hazards.length ? ` (hazards: ${s.hazards.join(', ')})` : ''}`);
  // A user mapping's or subscription's secrets as psql variables (`:'NAME'`), which psqlSecrets reads from the environment.
  return [head, ...s.sql.map((x) => terminated(holdsSecrets(s) ? withPsqlVariables(x) : x))].join('\n');
}

/**
 * `\getenv` (psql 15) for each environment variable the user mappings and subscriptions name, before the
 * transaction: an unset one leaves `:'NAME'` as it is, which the server refuses (ON_ERROR_STOP).
 */
function psqlSecrets(plan: PlanDocument): string[] {
  const names = [...plan.transaction.steps, ...plan.afterCommit].flatMap((s) =>
    holdsSecrets(s) ? s.sql.flatMap(secretNames) : [],
  );
  return [...new Set(names)].map((n) => `\\getenv ${n} ${n}`);
}

/** The statements alone (no header comment), with problems and unmanaged objects as comments: what scenario tests compare. */
export function planBodySql(plan: PlanDocument): string {
  const parts = !plan.changes
    ? [plan.problems.length || plan.unmanaged.length || plan.notManaged.length ? '-- no steps' : '-- no changes']
    : [
        ...(psqlSecrets(plan).length > 0 ? [psqlSecrets(plan).join('\n')] : []),
        [`${plan.transaction.begin};`, ...plan.transaction.preamble.map((s) => `${s};`)].join('\n'),
        ...plan.transaction.steps.map(stepBlock),
        `${plan.transaction.commit};`,
        ...(plan.afterCommit.length
          ? [
              commentLine(
                'The steps below run after COMMIT, one at a time (each in its own transaction where it can be).',
              ),
              ...(plan.afterCommit.some((s) => s.hazards.includes('non_transactional'))
                ? [SESSION_PINS.map((p) => `${p};`).join('\n')]
                : []),
            ]
          : []),
        ...plan.afterCommit.map((s) =>
          s.hazards.includes('non_transactional')
            ? stepBlock(s)
            : ['BEGIN;', ...plan.transaction.preamble.map((p) => `${p};`), stepBlock(s), 'COMMIT;'].join('\n'),
        ),
      ];
  if (plan.problems.length > 0)
    parts.push(
      plan.problems
        .map((p) => commentLine(`problem: ${p.where ? `${p.where}: ` : ''}${p.object}: ${p.message}`))
        .join('\n'),
    );
  if (plan.unmanaged.length > 0)
    parts.push(plan.unmanaged.map((u) => commentLine(`unmanaged (left alone): ${u}`)).join('\n'));
  if (plan.notManaged.length > 0)
    parts.push(plan.notManaged.map((x) => commentLine(`not managed (never compared): ${x.kind} ${x.name}`)).join('\n'));
  return `${parts.join('\n\n')}\n`;
}

/** Renders the plan as SQL: a header, then the body; psql runs it as it is. */
export function formatPlanSql(plan: PlanDocument): string {
  const source =
    plan.source.kind === 'offline'
      ? `offline: ${plan.source.description}`
      : `live state ${plan.source.fingerprint.slice(0, 12)}`;
  const header = [
    commentLine(`${plan.tool.name} ${plan.tool.version} plan for ${plan.manifest.file} (${source})`),
    commentLine(planHeadline(plan)),
    ...(plan.changes ? [commentLine('run with: psql -v ON_ERROR_STOP=1 -f <this file>')] : []),
    // The same warnings the text plan shows (a routine that will not be delegated, …).
    ...plan.warnings.map((w) => commentLine(formatProblem(w))),
  ];
  const quiet =
    !plan.changes && plan.problems.length === 0 && plan.unmanaged.length === 0 && plan.notManaged.length === 0;
  return quiet ? `${header.join('\n')}\n` : `${header.join('\n')}\n\n${planBodySql(plan)}`;
}
