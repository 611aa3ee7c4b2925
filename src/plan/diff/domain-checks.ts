// A domain whose CHECK calls a routine the plan drops and creates again: PostgreSQL refuses the
// routine's DROP while the constraint depends on it, and the domain cannot be dropped while
// columns use it (nor created again before the routine is). So its CHECK constraints are dropped
// before the routine (ALTER DOMAIN … DROP CONSTRAINT) and added again after it (ADD CONSTRAINT,
// which checks the columns' values again); the domain and its columns stay.
import type { SqlObject } from '../../model/types.js';
import { tryParseStatements, type Node } from '../../sql/pg-parse.js';
import { quoteIdent } from '../../sql/quote.js';
import type { Step } from '../steps/steps.js';

/** The named CHECK constraints of a domain as the catalog prints it: `CONSTRAINT n CHECK (…)` each. */
export function domainChecks(create: string): { name: string; text: string }[] {
  const stmt = tryParseStatements(create)?.[0]?.stmt?.CreateDomainStmt as Node;
  if (!stmt) return [];
  const bytes = Buffer.from(create, 'utf8');
  const all = ((stmt.constraints ?? []) as Node[]).map((c) => c.Constraint as Node);
  return all.flatMap((c, i) => {
    if (c.contype !== 'CONSTR_CHECK' || typeof c.conname !== 'string') return [];
    const end = all[i + 1]?.location ?? bytes.length;
    return [
      {
        name: c.conname as string,
        text: bytes
          .subarray(c.location as number, end)
          .toString('utf8')
          .trim(),
      },
    ];
  });
}

/** Steps that take the CHECK constraints of actual domain `a` off around a routine's DROP + CREATE. */
export function domainCheckSteps(a: SqlObject): { drops: Step[]; creates: Step[] } {
  const domain = a.name;
  const drops: Step[] = [];
  const creates: Step[] = [];
  for (const c of domainChecks(a.create[0] ?? '')) {
    const object = `check constraint ${domain}.${quoteIdent(c.name)}`;
    drops.push({
      kind: 'drop_object',
      object,
      objectKind: 'check constraint',
      statements: [`ALTER DOMAIN ${domain} DROP CONSTRAINT ${quoteIdent(c.name)}`],
      reason: 'recreate',
    });
    creates.push({
      kind: 'create_object',
      object,
      objectKind: 'check constraint',
      statements: [`ALTER DOMAIN ${domain} ADD ${c.text}`],
      recreate: true,
    });
  }
  // Those added NOT VALID after CREATE DOMAIN (catalog-domains.ts): dropped, then added as they were.
  for (const added of a.create.slice(1)) {
    const name = tryParseStatements(added)?.[0]?.stmt?.AlterDomainStmt?.def?.Constraint?.conname;
    if (typeof name !== 'string') continue;
    const object = `check constraint ${domain}.${quoteIdent(name)}`;
    drops.push({
      kind: 'drop_object',
      object,
      objectKind: 'check constraint',
      statements: [`ALTER DOMAIN ${domain} DROP CONSTRAINT ${quoteIdent(name)}`],
      reason: 'recreate',
    });
    creates.push({
      kind: 'create_object',
      object,
      objectKind: 'check constraint',
      statements: [added],
      recreate: true,
    });
  }
  return { drops, creates };
}
