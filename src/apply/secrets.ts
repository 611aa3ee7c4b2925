// The secrets of a plan's user mappings and subscriptions (`'${env:NAME}'` in a mapping's options or
// a subscription's connection string: objects/user-mapping.ts, objects/subscription.ts)
// at apply: the statements sent carry the variables' values, while what is shown, recorded and
// reported in a failure keeps the placeholders; a plan that needs a variable that is not set is
// refused before anything runs.
import { CmError, EXIT } from '../errors.js';
import type { PlanDocument, PlanStep } from '../plan/plan.js';
import { secretNames, substituteSecrets } from '../objects/user-mapping.js';
import { holdsSecrets } from '../plan/secret-steps.js';

export type Env = Readonly<Record<string, string | undefined>>;

/** The text sent for one of `step`'s statements. */
export const sentSql = (step: PlanStep | undefined, sql: string, env: Env | undefined): string =>
  env !== undefined && holdsSecrets(step) ? substituteSecrets(sql, env) : sql;

/** Refuses (before anything runs) a plan whose user mappings or subscriptions name variables `env` does not set. */
export function refuseUnsetSecrets(plan: PlanDocument, env: Env): void {
  const missing = [...plan.transaction.steps, ...plan.afterCommit].filter(holdsSecrets).flatMap((s) =>
    s.sql
      .flatMap(secretNames)
      .filter((n) => env[n] === undefined)
      .map((n) => ({ n, s })),
  );
  if (missing.length === 0) return;
  const lines = missing.map(({ n, s }) => `  ${n}: step ${s.index} (${s.summary})`);
  throw new CmError(
    `refusing to apply: environment variables the plan's user mappings or subscriptions name are not set; nothing was run\n${lines.join('\n')}\n  set them where apply runs (their values are never shown or recorded)`,
    'secret_unset',
    EXIT.invalidManifest,
    { variables: [...new Set(missing.map((x) => x.n))] },
  );
}
