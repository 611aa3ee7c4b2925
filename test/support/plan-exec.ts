// Runs a plan's steps directly with a pg client, in one transaction, the way psql -f would.
import pg from 'pg';
import type { PlanDocument } from '../../src/plan/plan.js';
import type { Step } from '../../src/plan/steps/steps.js';
import { needsCitus, STEP_KINDS } from '../../src/plan/steps/step-spec.js';

/** Steps that need Citus; plain PostgreSQL runs the others. */
export const CITUS_KINDS: ReadonlySet<string> = new Set(STEP_KINDS.filter(needsCitus));

export async function runPlanSteps(
  url: string,
  plan: PlanDocument,
  keep: (s: Step) => boolean = () => true,
): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('BEGIN');
    for (const s of plan.transaction.preamble) await client.query(s);
    for (const s of plan.transaction.steps) if (keep(s.step)) for (const q of s.sql) await client.query(q);
    await client.query('COMMIT');
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw e;
  } finally {
    await client.end();
  }
}

/** Runs one statement and collects the DEBUG/NOTICE messages the server sent meanwhile. */
export async function messagesOf(url: string, setup: readonly string[], statement: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  const messages: string[] = [];
  client.on('notice', (n) => messages.push(n.message ?? ''));
  await client.connect();
  try {
    for (const s of setup) await client.query(s);
    await client.query(statement);
    return messages;
  } finally {
    await client.end();
  }
}
