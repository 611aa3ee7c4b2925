// A plan saved with `plan --format json`, and why it may no longer be applied (stale).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { CmError, EXIT } from '../errors.js';
import type { PlanDocument } from '../plan/plan.js';

/** Reads a saved live plan; refuses a file that is not one. */
export function readSavedPlan(file: string, cwd: string): PlanDocument {
  let saved: PlanDocument;
  try {
    saved = JSON.parse(readFileSync(resolve(cwd, file), 'utf8')) as PlanDocument;
  } catch (e) {
    throw new CmError(`cannot read plan ${file}: ${(e as Error).message}`, 'file', EXIT.error);
  }
  if (saved.format !== 'citus-migrate.plan' || saved.formatVersion !== 1)
    throw new CmError(`${file} is not a citus-migrate plan (format version 1)`, 'invalid_plan', EXIT.error);
  if (saved.source.kind !== 'live')
    throw new CmError(
      `${file} is an offline plan: apply needs a plan made against the cluster (plan --database … --format json)`,
      'invalid_plan',
      EXIT.error,
    );
  return { ...saved, notManaged: saved.notManaged ?? [] };
}

/** What changed between two object-hash maps, for a stale-plan message. */
export function describeChanges(
  before: Readonly<Record<string, string>>,
  after: Readonly<Record<string, string>>,
): string[] {
  const out: string[] = [];
  for (const k of Object.keys(after))
    if (!(k in before)) out.push(`added ${k}`);
    else if (before[k] !== after[k]) out.push(`changed ${k}`);
  for (const k of Object.keys(before)) if (!(k in after)) out.push(`removed ${k}`);
  return out;
}

/** Throws exit 5 when the cluster's state is not the one the saved plan was made against. */
export function refuseStale(
  saved: PlanDocument,
  fingerprint: string,
  objects: Readonly<Record<string, string>>,
  file: string,
): void {
  if (saved.source.kind !== 'live' || saved.source.fingerprint === fingerprint) return;
  const changes = describeChanges(saved.source.objects ?? {}, objects);
  throw new CmError(
    `stale plan: the cluster changed since ${file} was made; nothing was run\n${changes
      .slice(0, 20)
      .map((c) => `  ${c}`)
      .join('\n')}${changes.length > 20 ? `\n  … and ${changes.length - 20} more` : ''}\n  plan again and review it`,
    'stale_plan',
    EXIT.stalePlan,
    { changes },
  );
}
