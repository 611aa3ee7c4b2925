// The Citus layouts corpus (issue #24): layouts built the way Citus's own regression tests build
// them. test/citus-layouts/layouts.json lists file names and line ranges of Citus's
// src/test/regress/sql at a tag; the SQL is read from a fetched Citus repository at test time
// (CITUS_REPO, default .mirror/citusdata+citus/repo beside the clone, where `fetch` puts it, as
// ../shared holds the corpora) and never committed. Each layout is
// built in a fresh database of a coordinator + 2 workers, adopted with introspect, planned
// against itself, applied to an empty database, and both compared: Citus metadata
// (support/citus-meta.ts), normalised pg_dump, and a re-plan of the copy.
import { spawnSync } from 'node:child_process';
import pg from 'pg';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { citusLayout, layoutDifferences } from './citus-meta.js';
import { freshDatabase, type TestDb } from './db.js';
import { schemaDump } from './dump.js';
import { differingLines, ENV, planRun, proveRun, run, type StepRun } from './real-schemas.js';
import { cli } from './run-cli.js';
import type { ServerInfo } from './servers.js';
import { checkCatalogAt } from './catalog-oracle.js';

export interface LayoutEntry {
  readonly name: string;
  readonly kind: string;
  readonly file: string;
  /** Inclusive 1-based line ranges of the file, concatenated in order. */
  readonly lines: readonly (readonly [number, number])[];
  /** Our own lines run before the ranges (a schema to work in). */
  readonly setup?: readonly string[];
}

interface LayoutList {
  readonly tag: string;
  readonly dir: string;
  readonly layouts: readonly LayoutEntry[];
}

export const LAYOUTS_FILE = join(import.meta.dirname, '..', 'citus-layouts', 'layouts.json');
export const layoutList = (): LayoutList => JSON.parse(readFileSync(LAYOUTS_FILE, 'utf8')) as LayoutList;
export const CITUS_REPO =
  process.env.CITUS_REPO ?? join(import.meta.dirname, '..', '..', '..', '.mirror', 'citusdata+citus', 'repo');

/** Why the corpus cannot run here ('' when the repository and tag are there). */
export function citusRepoMissing(): string {
  if (!existsSync(CITUS_REPO)) return `${CITUS_REPO} is missing (set CITUS_REPO to a clone of citusdata/citus)`;
  const { tag } = layoutList();
  const r = spawnSync('git', ['-C', CITUS_REPO, 'rev-parse', '--verify', '--quiet', `${tag}^{commit}`]);
  return r.status === 0 ? '' : `${CITUS_REPO} has no tag ${tag}`;
}

/** The SQL of one layout: its setup lines, then its line ranges read from the repository. */
export function layoutSql(entry: LayoutEntry): string {
  const { tag, dir } = layoutList();
  const r = spawnSync('git', ['-C', CITUS_REPO, 'show', `${tag}:${dir}/${entry.file}.sql`], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git show ${tag}:${dir}/${entry.file}.sql: ${r.stderr}`);
  const lines = r.stdout.split('\n');
  const picked = entry.lines.flatMap(([from, to]) => lines.slice(from - 1, to));
  return [...(entry.setup ?? []), ...picked, ''].join('\n');
}

/**
 * exact: copy equal, both plans empty. named: the tool said what differs. silent: it differs and
 * nothing said so. rejected: the tool's own plan refuses the manifest introspect wrote. refused:
 * PostgreSQL or Citus refused a step of the apply to an empty database. crash: a CLI crash.
 */
export type LayoutClass = 'exact' | 'named' | 'silent' | 'rejected' | 'refused' | 'crash';

export interface LayoutOutcome {
  readonly name: string;
  readonly kind: string;
  readonly loadErrors: number;
  readonly introspect: StepRun & { readonly leftOut: number };
  readonly plan?: Awaited<ReturnType<typeof planRun>>;
  /** plan --prove on the empty target before the apply: its verdict. */
  readonly prove?: Awaited<ReturnType<typeof proveRun>>;
  readonly apply?: StepRun;
  readonly metaDiff?: readonly string[];
  readonly dumpDiffLines?: number;
  readonly dumpDiffSample?: readonly string[];
  readonly replan?: Awaited<ReturnType<typeof planRun>>;
  /** What `plan --shards` finds on the original, freshly built by Citus: each a false alarm. */
  readonly shardFindings?: readonly string[];
  readonly klass: LayoutClass;
  /** Why it is not exact: the first difference or failure. */
  readonly reason: string;
  readonly seconds: number;
}

const isCrash = (s?: StepRun): boolean => s?.crash !== undefined;

/** exact: copy equal and both plans empty; named: the tool said something before or instead of applying; else silent. */
function classify(o: Omit<LayoutOutcome, 'klass' | 'reason'>): { klass: LayoutClass; reason: string } {
  const steps = [o.introspect, o.plan, o.apply, o.replan];
  const crashed = steps.find(isCrash);
  if (crashed) return { klass: 'crash', reason: crashed.crash! };
  const planSaid =
    (o.plan?.steps ?? 0) + (o.plan?.problems ?? 0) + (o.plan?.notManaged ?? 0) + (o.plan?.unmanaged ?? 0);
  const named =
    o.introspect.exit !== 0 || o.introspect.leftOut > 0 || planSaid > 0 || (o.plan?.exit ?? 0) === 1 || o.apply?.exit;
  const diffs = [
    ...(o.introspect.exit !== 0 ? [`introspect: ${o.introspect.firstError}`] : []),
    ...(o.plan && o.plan.exit !== 0 ? [`plan: ${o.plan.first[0] ?? o.plan.firstError ?? ''}`] : []),
    ...(o.apply && o.apply.exit !== 0 ? [`apply: ${o.apply.firstError ?? ''}`] : []),
    ...(o.metaDiff ?? []).map((d) => `metadata ${d}`),
    ...(o.dumpDiffLines ? (o.dumpDiffSample ?? []).map((d) => `dump ${d}`) : []),
    ...(o.replan && o.replan.exit !== 0 ? [`re-plan: ${o.replan.first[0] ?? o.replan.firstError ?? ''}`] : []),
  ];
  if (diffs.length === 0) return { klass: 'exact', reason: '' };
  if (o.plan?.exit === 3) return { klass: 'rejected', reason: diffs[0]!.slice(0, 160) };
  if (o.apply?.exit && /apply failed at step/.test(o.apply.firstError ?? ''))
    return { klass: 'refused', reason: `apply: ${o.apply.firstError ?? ''}`.slice(0, 160) };
  return { klass: named ? 'named' : 'silent', reason: diffs[0]!.slice(0, 160) };
}

/** `plan --shards` on a database: its repair steps and shard problems, as lines. */
async function shardCheck(db: TestDb, dir: string): Promise<string[]> {
  const r = await cli(['plan', '--database', db.url, '--shards', '--format', 'json'], { cwd: dir, env: ENV });
  let doc: {
    afterCommit?: { kind: string; summary: string }[];
    problems?: { code: string; object: string; message: string }[];
  };
  try {
    doc = JSON.parse(r.stdout) as typeof doc;
  } catch {
    return [`plan --shards printed no plan (exit ${r.code}): ${r.stderr.split('\n')[0]}`];
  }
  return [
    ...(doc.afterCommit ?? []).filter((s) => s.kind === 'repair_shard').map((s) => s.summary),
    ...(doc.problems ?? []).filter((p) => p.code.startsWith('shard_')).map((p) => `${p.object}: ${p.message}`),
  ];
}

/** Builds, adopts, applies and compares one layout; the databases made are pushed to `made`. */
export async function runLayout(entry: LayoutEntry, info: ServerInfo, made: TestDb[]): Promise<LayoutOutcome> {
  const started = performance.now();
  const seconds = (): number => Math.round((performance.now() - started) / 100) / 10;
  const original = await freshDatabase(info, 'cl');
  made.push(original);
  const [coord, w1, w2] = info.nodes;
  const load = original.psql({
    input: layoutSql(entry),
    vars: {
      ON_ERROR_STOP: '0',
      master_port: String(coord!.port),
      worker_1_port: String(w1?.port ?? 0),
      worker_2_port: String(w2?.port ?? 0),
    },
  });
  const loadErrors = load.stderr.split('\n').filter((l) => l.includes('ERROR:')).length;
  const dir = mkdtempSync(join(tmpdir(), `cm-layout-${entry.name}-`));
  await checkCatalogAt(original.url);
  const i = await cli(['introspect', '--database', original.url, '--out', join(dir, 'citus-migrate.yaml')], {
    env: ENV,
  });
  const leftOut = i.stderr.split('\n').filter((l) => l.startsWith('introspect: left out')).length;
  const head = { name: entry.name, kind: entry.kind, loadErrors, introspect: { ...run(i), leftOut } };
  const finish = (o: Omit<LayoutOutcome, 'klass' | 'reason' | 'seconds'>): LayoutOutcome => {
    const base = { ...o, seconds: seconds() };
    return { ...base, ...classify(base) };
  };
  if (i.code !== 0) return finish(head);
  const plan = await planRun(original, dir);
  const shardFindings = await shardCheck(original, dir);
  const target = await freshDatabase(info, 'ca');
  made.push(target);
  const prove = await proveRun(target, dir);
  const apply = run(
    await cli(['apply', '--database', target.url, '--auto-approve', '--allow-hazards', 'all'], { cwd: dir, env: ENV }),
  );
  if (apply.exit !== 0) return finish({ ...head, plan, shardFindings, prove, apply });
  const metaDiff = layoutDifferences(await citusLayout(original), await citusLayout(target));
  const dumps = differingLines(schemaDump(original), schemaDump(target));
  const replan = await planRun(target, dir);
  return finish({
    ...head,
    plan,
    shardFindings,
    prove,
    apply,
    metaDiff,
    dumpDiffLines: dumps.n,
    ...(dumps.n > 0 ? { dumpDiffSample: dumps.sample } : {}),
    replan,
  });
}

/** The report: one row per layout. */
export function layoutsTable(outcomes: readonly LayoutOutcome[]): string {
  const rows = outcomes.map((o) => [
    o.name,
    o.kind,
    o.klass,
    String(o.loadErrors),
    o.plan ? `${o.plan.steps}/${o.plan.notManaged}/${o.plan.problems}` : '-',
    o.metaDiff ? String(o.metaDiff.length) : '-',
    o.dumpDiffLines === undefined ? '-' : String(o.dumpDiffLines),
    o.shardFindings === undefined ? '-' : String(o.shardFindings.length),
    o.prove ? (o.prove.verdict === 'applied and converged' ? 'proved' : o.prove.verdict.slice(0, 60)) : '-',
    o.reason.replace(/\|/g, '\\|'),
  ]);
  const head = [
    'layout',
    'kind',
    'result',
    'load errors',
    'plan steps/not managed/problems',
    'metadata diffs',
    'dump diff lines',
    'plan --shards findings',
    'plan --prove',
    'first difference',
  ];
  const counts = (['exact', 'named', 'silent', 'rejected', 'refused', 'crash'] as const)
    .map((k) => `${k} ${outcomes.filter((o) => o.klass === k).length}`)
    .join(', ');
  const proved = outcomes.filter((o) => o.prove?.verdict === 'applied and converged').length;
  const caught = outcomes.filter(
    (o) => o.prove && o.prove.verdict !== 'applied and converged' && o.prove.verdict !== 'no proof',
  );
  return [
    `| ${head.join(' | ')} |`,
    `|${head.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
    '',
    counts,
    `plan --prove before each apply: ${proved} proved, ${caught.length} caught (${caught.map((o) => o.name).join(', ') || 'none'}), ${outcomes.filter((o) => o.klass === 'refused').length} refused at apply after it`,
  ].join('\n');
}

/** The nodes of the cluster a coordinator URL reaches (pg_dist_node), as tests address them. */
export async function serverInfoFromUrl(url: string): Promise<ServerInfo> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const nodes = await client.query<{ nodename: string; nodeport: number }>(
      "SELECT nodename, nodeport FROM pg_catalog.pg_dist_node WHERE noderole = 'primary' ORDER BY groupid",
    );
    const u = new URL(url);
    return {
      user: decodeURIComponent(u.username) || 'postgres',
      ...(u.password ? { password: decodeURIComponent(u.password) } : {}),
      citus: true,
      nodes: nodes.rows.map((r) => ({ host: r.nodename, port: r.nodeport })),
    };
  } finally {
    await client.end();
  }
}
