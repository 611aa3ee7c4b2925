// A plan saved with `plan --format json`, and why it may no longer be applied (stale).
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { CmError, EXIT, UsageError } from '../errors.js';
import { z } from 'zod';
import type { PlanDocument } from '../plan/plan.js';
import { readJsonFile } from '../files/json-file.js';

const savedStep = z.looseObject({
  index: z.number().int().positive(),
  kind: z.string(),
  phase: z.string(),
  summary: z.string(),
  hazards: z.array(z.string()).readonly(),
  sql: z.array(z.string()).readonly(),
});

/**
 * What apply reads of a saved plan (the rest passes through): which manifest and cluster state
 * it was made from, and the steps, SQL and hazards that must equal the plan computed again.
 */
export const savedPlanSchema = z.looseObject({
  format: z.literal('citus-migrate.plan'),
  formatVersion: z.literal(1),
  source: z.discriminatedUnion('kind', [
    z.looseObject({ kind: z.literal('offline') }),
    z.looseObject({
      kind: z.literal('live'),
      fingerprint: z.string(),
      objects: z.record(z.string(), z.string()).optional(),
    }),
  ]),
  manifest: z.looseObject({ file: z.string(), sha256: z.string(), path: z.string().optional() }),
  options: z.looseObject({ online: z.boolean(), shards: z.boolean().optional() }).optional(),
  hazards: z.array(z.string()).readonly(),
  transaction: z.looseObject({ preamble: z.array(z.string()).readonly(), steps: z.array(savedStep).readonly() }),
  afterCommit: z.array(savedStep).readonly(),
});

/** A saved plan as apply reads it. */
export type SavedPlan = z.infer<typeof savedPlanSchema>;

/** Reads a saved live plan; refuses a file that is not one, naming what is wrong where. */
export function readSavedPlan(file: string, cwd: string): SavedPlan {
  const saved = readJsonFile(file, cwd, {
    schema: savedPlanSchema,
    what: 'plan',
    format: 'citus-migrate.plan',
    code: 'invalid_plan',
  });
  if (saved.source.kind !== 'live')
    throw new CmError(
      `${file} is an offline plan: apply needs a plan made against the cluster (plan --database … --format json)`,
      'invalid_plan',
      EXIT.error,
    );
  return saved;
}

/** What changed between two object-hash maps, for a stale-plan message. */
export function describeChanges(
  before: Readonly<Record<string, string>>,
  after: Readonly<Record<string, string>>,
): string[] {
  const out: string[] = [];
  for (const k of Object.keys(after))
    if (!Object.hasOwn(before, k)) out.push(`added ${k}`);
    else if (before[k] !== after[k]) out.push(`changed ${k}`);
  for (const k of Object.keys(before)) if (!(k in after)) out.push(`removed ${k}`);
  return out;
}

/** Indented lines, at most 20, then how many more. */
export const listed = (lines: readonly string[]): string =>
  `${lines
    .slice(0, 20)
    .map((l) => `  ${l}`)
    .join('\n')}${lines.length > 20 ? `\n  … and ${lines.length - 20} more` : ''}`;

/** A saved plan made from another text of the manifest is stale: refused before anything runs. */
export function refuseOtherManifest(
  saved: SavedPlan,
  manifest: { readonly file: string; readonly sha256: string },
  planFile = 'the saved plan',
): void {
  if (saved.manifest.sha256 === manifest.sha256) return;
  throw new CmError(
    `stale plan: ${manifest.file} changed since ${planFile} was made (manifest sha256 ${saved.manifest.sha256.slice(0, 12)} -> ${manifest.sha256.slice(0, 12)}); nothing was run`,
    'stale_plan',
    EXIT.stalePlan,
  );
}

/** Throws exit 5 when the cluster's state is not the one the saved plan was made against. */
export function refuseStale(
  saved: SavedPlan,
  fingerprint: string,
  objects: Readonly<Record<string, string>>,
  file: string,
): void {
  if (saved.source.kind !== 'live' || saved.source.fingerprint === fingerprint) return;
  const changes = describeChanges(saved.source.objects ?? {}, objects);
  throw new CmError(
    `stale plan: the cluster changed since ${file} was made; nothing was run\n${listed(changes)}\n  plan again and review it`,
    'stale_plan',
    EXIT.stalePlan,
    { changes },
  );
}

const realOrSelf = (p: string): string => {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
};

const sha256Of = (p: string): string | undefined => {
  try {
    return createHash('sha256').update(readFileSync(p, 'utf8')).digest('hex');
  } catch {
    return undefined;
  }
};

/**
 * The manifest a saved plan was made from, as a path for this run. The candidates are the plan's
 * `file` beside the plan file (where `plan -o` writes it relative to), the absolute path it was
 * planned at, and `file` from the current folder. With -f, the file given must be one of those
 * that exist (exit 64 otherwise, and when none exists: a plan is applied only with the manifest it
 * names, never with another that happens to hold the same text). Without -f, the first of them
 * holding the same text; none matching: the first that exists, so the caller reports what changed.
 */
export function savedPlanManifest(
  saved: SavedPlan,
  planFile: string,
  cwd: string,
  explicit: string | undefined,
): string {
  const { file, path, sha256 } = saved.manifest;
  const planDir = dirname(resolve(cwd, planFile));
  const candidates = [
    ...new Set([
      ...(isAbsolute(file) ? [file] : [resolve(planDir, file)]),
      ...(path !== undefined ? [path] : []),
      resolve(cwd, file),
    ]),
  ];
  const existing = candidates.filter((c) => existsSync(c));
  if (explicit !== undefined) {
    const given = realOrSelf(resolve(cwd, explicit));
    if (existing.length === 0)
      throw new UsageError(
        `--plan ${planFile} was made from ${path ?? file}, which is not here (tried ${candidates.join(', ')}); -f ${explicit} does not stand in for it: plan again from ${explicit}`,
      );
    if (!existing.some((c) => realOrSelf(c) === given))
      throw new UsageError(
        `-f ${explicit} and --plan ${planFile} name different manifests: the plan was made from ${existing[0]}; drop -f, or plan again from ${explicit}`,
      );
    return explicit;
  }
  const found = existing.find((c) => sha256Of(c) === sha256) ?? existing[0];
  if (found === undefined)
    throw new CmError(
      `the manifest ${planFile} was made from is not here: tried ${candidates.join(', ')}; nothing was run (plan again)`,
      'file',
      EXIT.error,
    );
  const rel = relative(cwd, found);
  return rel.startsWith('..') || isAbsolute(rel) ? found : rel;
}

/** What of a step must match between a saved plan and the plan computed again before running it. */
const essence = (s: {
  readonly kind: string;
  readonly phase: string;
  readonly sql: readonly string[];
  readonly hazards: readonly string[];
}) => ({ kind: s.kind, phase: s.phase, sql: s.sql, hazards: s.hazards });

/**
 * Throws when a saved plan's steps, SQL or hazards differ from the plan computed now from the
 * same manifest and the same cluster: the file was edited (or made by another version). The
 * recomputed plan is what runs; a saved plan only ever narrows what is approved.
 */
export function refuseAltered(saved: SavedPlan, fresh: PlanDocument, file: string): void {
  const sides = (p: SavedPlan | PlanDocument) => ({
    preamble: p.transaction.preamble,
    transaction: p.transaction.steps.map(essence),
    afterCommit: p.afterCommit.map(essence),
    hazards: [...p.hazards].sort(),
  });
  const a = sides(saved);
  const b = sides(fresh);
  const differs: string[] = [];
  if (JSON.stringify(a.preamble) !== JSON.stringify(b.preamble)) differs.push('the transaction preamble');
  for (const part of ['transaction', 'afterCommit'] as const) {
    const n = Math.max(a[part].length, b[part].length);
    for (let i = 0; i < n; i++) {
      const x = a[part][i];
      const y = b[part][i];
      if (JSON.stringify(x) === JSON.stringify(y)) continue;
      const where = part === 'transaction' ? `step ${i + 1}` : `after-COMMIT step ${i + 1}`;
      if (x === undefined || y === undefined)
        differs.push(`${where}: ${x === undefined ? 'missing from' : 'added in'} the file`);
      else if (x.kind !== y.kind) differs.push(`${where}: kind ${x.kind}, expected ${y.kind}`);
      else if (JSON.stringify(x.sql) !== JSON.stringify(y.sql)) differs.push(`${where}: its SQL`);
      else if (JSON.stringify(x.hazards) !== JSON.stringify(y.hazards))
        differs.push(`${where}: hazards [${x.hazards.join(', ')}], expected [${y.hazards.join(', ')}]`);
      else differs.push(`${where}: its phase`);
    }
  }
  if (differs.length === 0 && JSON.stringify(a.hazards) !== JSON.stringify(b.hazards)) differs.push('its hazard list');
  if (differs.length === 0) return;
  throw new CmError(
    `${file} does not match the plan for this manifest and cluster (edited, or made by another version of citus-migrate); nothing was run\n${listed(differs)}\n  plan again and review it`,
    'altered_plan',
    EXIT.stalePlan,
    { differs },
  );
}
