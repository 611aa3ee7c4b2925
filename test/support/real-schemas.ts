// The real-schemas acceptance run (issue #23): one application schema from
// ../shared/corpora/real-schemas/<name>/schema.sql loaded into a fresh database, adopted with
// `introspect --out`, planned against itself, applied to a second empty database, and the two
// compared by pg_dump. Every step is recorded, not asserted: a schema the tool does not adopt
// yet is a row of the report. Only a crash (an exception the CLI did not expect) is a failure.
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freshDatabase, sql, type TestDb } from './db.js';
import { normaliseDump, rawDump } from './dump.js';
import { cli, type CliResult } from './run-cli.js';
import type { ServerInfo } from './servers.js';
import { checkCatalogAt } from './catalog-oracle.js';

/** Where the corpora live: beside the repository, as CI checks them out. */
export const REAL_SCHEMAS = join(import.meta.dirname, '..', '..', '..', 'shared', 'corpora', 'real-schemas');

/** The schemas present, smallest first, or why there are none. */
export function realSchemas(): { names: string[]; missing?: string } {
  if (!existsSync(REAL_SCHEMAS)) return { names: [], missing: `${REAL_SCHEMAS} is missing` };
  const names = readdirSync(REAL_SCHEMAS).filter((n) => existsSync(join(REAL_SCHEMAS, n, 'schema.sql')));
  return { names: names.sort() };
}

/** `ERROR:` lines psql prints loading each file on PostgreSQL 15 + contrib (the corpora README); 0 when absent. */
export const EXPECTED_LOAD_ERRORS: Readonly<Record<string, number>> = { adventureworks: 1 };

/** An unexpected exception: what the CLI prints for an error it has no error class for. */
export const CRASH =
  /\b(TypeError|ReferenceError|RangeError|SyntaxError|ZodError)\b|Cannot read propert|Unterminated string|is not a function|is not iterable|Maximum call stack/;

export interface StepRun {
  readonly exit: number;
  /** The first line of a crash (an unexpected exception), when there was one. */
  readonly crash?: string;
  readonly firstError?: string;
}

export interface SchemaOutcome {
  readonly schema: string;
  readonly loadErrors: number;
  readonly expectedLoadErrors: number;
  readonly introspect: StepRun & { readonly leftOut: string[] };
  readonly plan?: StepRun & {
    readonly steps: number;
    readonly unmanaged: number;
    readonly notManaged: number;
    readonly problems: number;
    readonly first: string[];
  };
  /** plan --prove on the empty target, before the apply: what the proof said. */
  readonly prove?: StepRun & { readonly verdict: string };
  readonly apply?: StepRun;
  /** 0 when the two dumps are equal, else how many lines differ (either side). */
  readonly dumpDiffLines?: number;
  /** A few lines only the original's dump has (-) and only the copy's has (+). */
  readonly dumpDiffSample?: string[];
  readonly replan?: NonNullable<SchemaOutcome['plan']>;
  readonly seconds: number;
}

/** One CLI run as a step of the report: exit code, a crash's first line, the first error. */
export function run(r: CliResult): StepRun {
  const lines = r.stderr.split('\n').filter((l) => l.trim() !== '');
  const crashLine = lines.find((l) => CRASH.test(l));
  // An apply failure says which step, then the server's ERROR line: both are kept.
  const errors = lines.filter((l) => /error/i.test(l)).slice(0, 2);
  const firstError = errors.length > 0 ? errors.map((l) => l.trim()).join(' ') : lines[0];
  return {
    exit: r.code,
    ...(crashLine && r.code !== 0 ? { crash: crashLine.trim() } : {}),
    ...(r.code !== 0 && firstError ? { firstError: firstError.trim().slice(0, 300) } : {}),
  };
}

/** Lines of one text missing from the other, counted both ways (a multiset difference), and a few of each. */
export function differingLines(a: string, b: string): { n: number; sample: string[] } {
  const count = new Map<string, number>();
  for (const l of a.split('\n')) count.set(l, (count.get(l) ?? 0) + 1);
  for (const l of b.split('\n')) count.set(l, (count.get(l) ?? 0) - 1);
  const diff = [...count].filter(([, v]) => v !== 0);
  const n = diff.reduce((s, [, v]) => s + Math.abs(v), 0);
  const side = (sign: string, want: (v: number) => boolean): string[] =>
    diff
      .filter(([, v]) => want(v))
      .slice(0, 2)
      .map(([l]) => `${sign} ${l.trim().slice(0, 120)}`);
  return { n, sample: [...side('-', (v) => v > 0), ...side('+', (v) => v < 0)] };
}

interface PlanJson {
  transaction: { steps: { summary: string }[] };
  afterCommit: { summary: string }[];
  problems: { object: string; message: string }[];
  unmanaged: string[];
  notManaged: { kind: string; name: string }[];
}

// CITUS_MIGRATE_DEBUG prints the stack of an unexpected exception, whose first line names its class.
export const ENV = { CITUS_MIGRATE_DEBUG: '1' };

/** `plan --format json --detailed-exitcode --include-unmanaged` in `dir` against `db`, summarised. */
export async function planRun(db: TestDb, dir: string): Promise<NonNullable<SchemaOutcome['plan']>> {
  const r = await cli(
    ['plan', '--database', db.url, '--format', 'json', '--detailed-exitcode', '--include-unmanaged'],
    { cwd: dir, env: ENV },
  );
  const base = run(r);
  let p: PlanJson | undefined;
  try {
    // An error prints its JSON envelope instead of a plan.
    const doc = JSON.parse(r.stdout) as Partial<PlanJson>;
    p = doc.transaction ? (doc as PlanJson) : undefined;
  } catch {
    p = undefined;
  }
  const steps = p ? [...p.transaction.steps, ...p.afterCommit] : [];
  return {
    ...base,
    steps: steps.length,
    unmanaged: p?.unmanaged.length ?? 0,
    notManaged: p?.notManaged.length ?? 0,
    problems: p?.problems.length ?? 0,
    first: [
      ...(p?.problems ?? []).slice(0, 3).map((x) => `problem: ${x.object}: ${x.message}`),
      ...steps.slice(0, 5).map((s) => s.summary),
      ...(p?.unmanaged ?? []).slice(0, 3).map((u) => `unmanaged: ${u}`),
      ...(p?.notManaged ?? []).slice(0, 3).map((x) => `not managed: ${x.kind} ${x.name}`),
    ],
  };
}

/** `plan --prove` against `db`: the plan run on a scratch copy first; its verdict in a few words. */
export async function proveRun(db: TestDb, dir: string): Promise<NonNullable<SchemaOutcome['prove']>> {
  const r = await cli(['plan', '--database', db.url, '--prove', '--format', 'json'], { cwd: dir, env: ENV });
  let proof: { refused?: { step: number; message: string }; remaining: string[] } | undefined;
  try {
    proof = (JSON.parse(r.stdout) as { proof?: typeof proof }).proof;
  } catch {
    proof = undefined;
  }
  const verdict = !proof
    ? 'no proof'
    : proof.refused
      ? `refused at step ${proof.refused.step}: ${proof.refused.message}`
      : proof.remaining.length > 0
        ? `not converged (${proof.remaining.length} left)`
        : 'applied and converged';
  return { ...run(r), verdict };
}

/** Runs the whole acceptance sequence for one schema; the databases made are pushed to `made`. */
export async function runRealSchema(name: string, info: ServerInfo, made: TestDb[]): Promise<SchemaOutcome> {
  const started = performance.now();
  const expectedLoadErrors = EXPECTED_LOAD_ERRORS[name] ?? 0;
  const original = await freshDatabase(info, 'rs');
  made.push(original);
  const load = original.psql({ file: join(REAL_SCHEMAS, name, 'schema.sql'), vars: { ON_ERROR_STOP: '0' } });
  const loadErrors = load.stderr.split('\n').filter((l) => l.includes('ERROR:')).length;
  const o = await adoptApplyCompare(name, original, info, made);
  return {
    ...o.outcome,
    loadErrors,
    expectedLoadErrors,
    seconds: Math.round((performance.now() - started) / 100) / 10,
  };
}

/** What adoptApplyCompare gives besides the outcome: both raw dumps, when the copy applied. */
export interface Compared {
  readonly outcome: SchemaOutcome;
  readonly dumps?: { readonly original: string; readonly copy: string };
}

/**
 * The acceptance sequence on a loaded database: introspect --out, plan against itself, --prove and
 * apply on an empty database, pg_dump both and compare, re-plan the copy. `seconds` and the load
 * figures are the caller's.
 */
export async function adoptApplyCompare(
  name: string,
  original: TestDb,
  info: ServerInfo,
  made: TestDb[],
): Promise<Compared> {
  const started = performance.now();
  const seconds = (): number => Math.round((performance.now() - started) / 100) / 10;
  await checkCatalogAt(original.url);

  const dir = mkdtempSync(join(tmpdir(), `cm-real-${name}-`));
  const i = await cli(['introspect', '--database', original.url, '--out', join(dir, 'citus-migrate.yaml')], {
    env: ENV,
  });
  const leftOut = i.stderr
    .split('\n')
    .map((l) => /^ {2}(.+?) \((\d+)\):/.exec(l))
    .filter((m) => m !== null)
    .map((m) => `${m[1]} (${m[2]})`);
  const introspect = { ...run(i), leftOut };
  const head = { schema: name, loadErrors: 0, expectedLoadErrors: 0, introspect };
  if (i.code !== 0) return { outcome: { ...head, seconds: seconds() } };

  const plan = await planRun(original, dir);
  const target = await freshDatabase(info, 'ra');
  made.push(target);
  const prove = await proveRun(target, dir);
  const apply = run(
    await cli(['apply', '--database', target.url, '--auto-approve', '--allow-hazards', 'all'], { cwd: dir, env: ENV }),
  );
  if (apply.exit !== 0) return { outcome: { ...head, plan, prove, apply, seconds: seconds() } };
  const raw = { original: rawDump(original), copy: rawDump(target) };
  // Column lines sorted per table (schemaDump's default), as the schema-change corpus compares.
  const [want, got] = [normaliseDump(raw.original), normaliseDump(raw.copy)];
  // REAL_SCHEMAS_DUMPS=dir keeps both normalised dumps, to read a difference in full.
  const keep = process.env.REAL_SCHEMAS_DUMPS;
  if (keep) {
    writeFileSync(join(keep, `${name}.original.sql`), want);
    writeFileSync(join(keep, `${name}.copy.sql`), got);
  }
  const dumps = differingLines(want, got);
  const replan = await planRun(target, dir);
  const dumpDiff = { dumpDiffLines: dumps.n, ...(dumps.n > 0 ? { dumpDiffSample: dumps.sample } : {}) };
  return { outcome: { ...head, plan, prove, apply, ...dumpDiff, replan, seconds: seconds() }, dumps: raw };
}

/** Drops the databases a run made, so the server stays small. */
export async function dropAll(info: ServerInfo, made: readonly TestDb[]): Promise<void> {
  for (const db of made)
    await sql(info, 'postgres', `DROP DATABASE IF EXISTS "${db.name}" WITH (FORCE)`).catch(() => undefined);
}

/** The crashes in an outcome, as "step: first line". */
export function crashes(o: SchemaOutcome): string[] {
  const steps: [string, StepRun | undefined][] = [
    ['introspect', o.introspect],
    ['plan', o.plan],
    ['apply', o.apply],
    ['re-plan', o.replan],
  ];
  return steps.filter(([, s]) => s?.crash).map(([k, s]) => `${k}: ${s!.crash}`);
}
