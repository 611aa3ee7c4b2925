// sqldef's psqldef test cases (../shared/corpora/sqldef-psqldef/*.yml, issue #23) run as schema
// changes: `desired` is loaded into a fresh database and adopted with `introspect --out` (prune
// on), `current` is loaded into another and the manifest applied there; the two are compared by
// normalised pg_dump and planned again. Every case ends in one class (see `Klass`); the YAML is
// read at test time, never copied into the repository.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, parseDocument } from 'yaml';
import { quoteIdent } from '../../src/sql/quote.js';
import { sql, type TestDb } from './db.js';
import { schemaDumpAsync } from './dump.js';
import { differingLines, CRASH } from './real-schemas.js';
import { cli, type CliResult } from './run-cli.js';
import type { ServerInfo } from './servers.js';
import { checkCatalogAt } from './catalog-oracle.js';

/** Where the corpus lives: beside the repository, as CI checks it out. */
export const SQLDEF = join(import.meta.dirname, '..', '..', '..', 'shared', 'corpora', 'sqldef-psqldef');

export interface SqldefCase {
  readonly file: string; // tests_constraints.yml
  readonly name: string;
  readonly current: string;
  readonly desired: string;
  readonly spec: Readonly<Record<string, unknown>>;
}

/** Every case of every file, in file then case order, or why there are none. */
export function sqldefCases(): { cases: SqldefCase[]; missing?: string } {
  if (!existsSync(SQLDEF)) return { cases: [], missing: `${SQLDEF} is missing` };
  const cases: SqldefCase[] = [];
  for (const file of readdirSync(SQLDEF)
    .filter((f) => f.endsWith('.yml'))
    .sort()) {
    const doc = (parse(readFileSync(join(SQLDEF, file), 'utf8')) ?? {}) as Record<string, Record<string, unknown>>;
    for (const [name, spec] of Object.entries(doc))
      cases.push({
        file,
        name,
        current: typeof spec.current === 'string' ? spec.current : '',
        desired: typeof spec.desired === 'string' ? spec.desired : '',
        spec,
      });
  }
  return { cases };
}

/** A fixed-seed sample of `n` cases (a small LCG, so the same seed picks the same cases everywhere). */
export function sampleCases<T>(all: readonly T[], n: number, seed: number): T[] {
  const rest = [...all];
  const out: T[] = [];
  let s = seed >>> 0;
  while (out.length < n && rest.length > 0) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    out.push(rest.splice(s % rest.length, 1)[0]!);
  }
  return out;
}

/** The roles upstream's harness creates once for managed_roles / manage.privilege cases (SOURCE.md). */
export const SQLDEF_ROLES = [
  'readonly_user',
  'app_user',
  'admin_role',
  'user-with-dash',
  'user.with.dot',
  'user with spaces',
  'CamelCaseUser',
  'UPPERCASE_USER',
  'user1',
  'user2',
  'user3',
  'user4',
  'My User',
  'reader',
  'writer',
  'admin',
  'reader1',
  'reader2',
  'writer1',
  'writer2',
  'role1',
  'role2',
  'power_user',
  'user@domain.com',
  'psqldef_user',
];

/** Creates the roles the cases grant to (cluster-wide, so once per server). */
export async function createSqldefRoles(info: ServerInfo): Promise<void> {
  const stmts = SQLDEF_ROLES.map(
    (r) =>
      `DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_roles WHERE rolname = '${r.replace(/'/g, "''")}') THEN CREATE ROLE ${quoteIdent(r)}; END IF; END $$`,
  );
  await sql(info, 'postgres', stmts);
}

/** Why a case cannot run on this server (PostgreSQL 15 + contrib), or undefined. */
export function skipReason(c: SqldefCase, serverMajor: number): string | undefined {
  if (c.spec.flavor === 'pgvector') return 'needs pgvector';
  if (c.spec.offline) return 'offline (no database)';
  if (c.spec.error !== undefined) return 'expects psqldef to refuse (error)';
  const min = c.spec.min_version;
  if (min !== undefined && Number(String(min).split('.')[0]) > serverMajor) return `needs PostgreSQL ${String(min)}`;
  const max = c.spec.max_version;
  if (max !== undefined && Number(String(max).split('.')[0]) < serverMajor) return `needs PostgreSQL ≤ ${String(max)}`;
  return undefined;
}

/**
 * converged: equal dumps and an empty re-plan. named: the dumps differ (or an apply was refused),
 * and introspect or a plan said so. silent: the dumps differ and nothing was said. crash: an
 * exception the CLI did not expect, or introspect/plan failing on a database that loaded.
 * rejected: introspect wrote a manifest the tool's own plan rejects (issue #23, rule 3).
 * refused-by-postgres: the plan had no problem but PostgreSQL refused it. unstable: equal dumps,
 * but a plan on them is not empty. skipped: cannot run here (see skipReason, or a side does not load).
 * Dumps are compared as multisets of lines: pg_dump's order of equal objects (grants) is not schema.
 */
export type Klass =
  'converged' | 'named' | 'silent' | 'crash' | 'rejected' | 'refused-by-postgres' | 'unstable' | 'skipped';
export const KLASSES: readonly Klass[] = [
  'converged',
  'named',
  'silent',
  'crash',
  'rejected',
  'refused-by-postgres',
  'unstable',
  'skipped',
];

export interface SqldefOutcome {
  readonly file: string;
  readonly name: string;
  readonly klass: Klass;
  /** One line: why this class (the first difference, the error, what was named). */
  readonly why: string;
  readonly seconds: number;
}

/** psql -X -q -v ON_ERROR_STOP=1 on a database, without blocking the event loop. */
function psqlAsync(db: TestDb, input: string, password?: string): Promise<{ status: number; stderr: string }> {
  return new Promise((done) => {
    const p = spawn('psql', ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', db.url], {
      env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) },
      stdio: ['pipe', 'ignore', 'pipe'],
    });
    let stderr = '';
    p.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    p.on('close', (code) => done({ status: code ?? -1, stderr }));
    p.stdin.end(input);
  });
}

/** A fresh database on a plain server (no Citus), dropped by `dropDb`. */
async function freshDb(info: ServerInfo, prefix: string): Promise<TestDb> {
  const name = `${prefix}_${Math.random().toString(16).slice(2, 12)}`;
  await sql(info, 'postgres', `CREATE DATABASE ${quoteIdent(name)}`);
  const c = info.nodes[0]!;
  const auth = `${encodeURIComponent(info.user)}${info.password ? `:${encodeURIComponent(info.password)}` : ''}`;
  const url = `postgresql://${auth}@${c.host}:${c.port}/${name}`;
  return {
    name,
    url,
    query: (text, node = 0) => sql(info, name, text, node),
    psql: () => {
      throw new Error('psqlAsync only');
    },
  };
}

const dropDb = (info: ServerInfo, db: TestDb): Promise<unknown> =>
  sql(info, 'postgres', `DROP DATABASE IF EXISTS ${quoteIdent(db.name)} WITH (FORCE)`).catch(() => undefined);

const firstLine = (s: string): string =>
  (s.split('\n').find((l) => /ERROR|error/.test(l)) ?? s.split('\n').find((l) => l.trim() !== '') ?? '')
    .trim()
    .slice(0, 200);

const crashOf = (r: CliResult): string | undefined =>
  r.stderr
    .split('\n')
    .find((l) => CRASH.test(l))
    ?.trim()
    .slice(0, 200);

interface PlanJson {
  transaction: { steps: { summary: string }[] };
  afterCommit: { summary: string }[];
  problems: { object: string; message: string }[];
  unmanaged: string[];
  notManaged: { kind: string; name: string }[];
}

const ENV = { CITUS_MIGRATE_DEBUG: '1' };

/** What a plan (JSON) on `db` says, or the failure. */
async function planOn(db: TestDb, dir: string, prove = false): Promise<{ r: CliResult; p?: PlanJson }> {
  const r = await cli(['plan', '--database', db.url, '--format', 'json', ...(prove ? ['--prove'] : [])], {
    cwd: dir,
    env: ENV,
  });
  try {
    const p = JSON.parse(r.stdout) as Partial<PlanJson>;
    // An error envelope (an invalid manifest) parses too: a plan has its transaction.
    return p.transaction ? { r, p: p as PlanJson } : { r };
  } catch {
    return { r };
  }
}

/** What a plan names: its steps, problems, unmanaged and not-managed objects, as short lines. */
function said(p: PlanJson): string[] {
  return [
    ...p.problems.map((x) => `problem ${x.object}: ${x.message}`),
    ...[...p.transaction.steps, ...p.afterCommit].map((s) => s.summary),
    ...p.unmanaged.map((u) => `unmanaged ${u}`),
    ...p.notManaged.map((x) => `not managed ${x.kind} ${x.name}`),
  ];
}
const steps = (p: PlanJson): number => p.transaction.steps.length + p.afterCommit.length + p.problems.length;

/** Runs one case on a plain server; the databases it makes are dropped before it returns. */
export async function runSqldefCase(c: SqldefCase, info: ServerInfo, serverMajor: number): Promise<SqldefOutcome> {
  const started = performance.now();
  const done = (klass: Klass, why: string): SqldefOutcome => ({
    file: c.file,
    name: c.name,
    klass,
    why: why.replace(/\s+/g, ' ').slice(0, 300),
    seconds: Math.round((performance.now() - started) / 100) / 10,
  });
  const skip = skipReason(c, serverMajor);
  if (skip) return done('skipped', skip);
  const made: TestDb[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'cm-sqldef-'));
  try {
    // A `user` case runs with search_path foo, public (upstream's harness): schema foo on both sides.
    const prelude = c.spec.user ? 'CREATE SCHEMA foo; SET search_path TO foo, public;\n' : '';
    const source = await freshDb(info, 'sd');
    made.push(source);
    const loadNew = await psqlAsync(source, prelude + c.desired, info.password);
    if (loadNew.status !== 0) return done('skipped', `desired does not load: ${firstLine(loadNew.stderr)}`);
    await checkCatalogAt(source.url, info.password);
    const target = await freshDb(info, 'sc');
    made.push(target);
    const loadOld = await psqlAsync(target, prelude + c.current, info.password);
    if (loadOld.status !== 0) return done('skipped', `current does not load: ${firstLine(loadOld.stderr)}`);

    const file = join(dir, 'citus-migrate.yaml');
    const intro = await cli(['introspect', '--database', source.url, '--out', file], { env: ENV });
    const introCrash = crashOf(intro);
    if (introCrash || intro.code !== 0)
      return done('crash', `introspect exit ${intro.code}: ${introCrash ?? firstLine(intro.stderr)}`);
    const leftOut = /left out/.test(intro.stderr)
      ? [firstLine(intro.stderr.slice(intro.stderr.indexOf('left out')))]
      : [];
    const doc = parseDocument(readFileSync(file, 'utf8'));
    doc.set('prune', true);
    writeFileSync(file, doc.toString({ lineWidth: 0 }));

    // Rule 1: the plan on the database introspect read is empty unless it names something.
    const self = await planOn(source, dir);
    if (!self.p && !crashOf(self.r))
      return done('rejected', `plan on the source exit ${self.r.code}: ${firstLine(self.r.stderr || self.r.stdout)}`);
    if (!self.p)
      return done('crash', `plan on the source exit ${self.r.code}: ${crashOf(self.r) ?? firstLine(self.r.stderr)}`);
    const selfSaid = said(self.p);
    // The plan is proved first (plan --prove, on a scratch copy of current): what PostgreSQL would
    // refuse, or a plan that would not converge, is a plan problem before anything is applied.
    const before = await planOn(target, dir, PROVE);
    if (!before.p)
      return done('crash', `plan on current exit ${before.r.code}: ${crashOf(before.r) ?? firstLine(before.r.stderr)}`);
    const named = [...leftOut, ...selfSaid.map((s) => `source: ${s}`)];
    if (before.p.problems.length > 0)
      return done('named', `plan problem: ${said(before.p)[0]!}${named.length ? `; ${named[0]}` : ''}`);
    const apply = await cli(['apply', '--database', target.url, '--auto-approve', '--allow-hazards', 'all'], {
      cwd: dir,
      env: ENV,
    });
    const applyCrash = crashOf(apply);
    if (applyCrash) return done('crash', `apply: ${applyCrash}`);
    if (apply.code !== 0) return done('refused-by-postgres', `apply exit ${apply.code}: ${firstLine(apply.stderr)}`);

    const [want, got] = await Promise.all([schemaDumpAsync(source), schemaDumpAsync(target)]);
    const again = await planOn(target, dir);
    if (!again.p)
      return done('crash', `re-plan exit ${again.r.code}: ${crashOf(again.r) ?? firstLine(again.r.stderr)}`);
    const againSaid = said(again.p).map((s) => `re-plan: ${s}`);
    const d = differingLines(want, got);
    if (d.n === 0) {
      if (steps(again.p) > 0) return done('unstable', againSaid.join('; '));
      if (steps(self.p) > 0) return done('unstable', `plan on the source is not empty: ${selfSaid.join('; ')}`);
      return done('converged', '');
    }
    const diff = `${d.n} dump lines differ: ${d.sample.join(' ')}`;
    const all = [...named, ...againSaid];
    if (all.length > 0) return done('named', `${diff} — named: ${all.slice(0, 3).join('; ')}`);
    return done('silent', diff);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await Promise.all(made.map((db) => dropDb(info, db)));
  }
}

/** Whether the corpus runs `plan --prove` before each apply (SQLDEF_PROVE=0 turns it off). */
const PROVE = process.env.SQLDEF_PROVE !== '0';

/** The per-class and per-file counts as a markdown table, then the cases not converged by class. */
export function sqldefSummary(outcomes: readonly SqldefOutcome[], seconds: number): string {
  const count = (xs: readonly SqldefOutcome[], k: Klass): number => xs.filter((o) => o.klass === k).length;
  const files = [...new Set(outcomes.map((o) => o.file))].sort();
  const rows = [
    `| file | cases | ${KLASSES.join(' | ')} |`,
    `|---|---:|${KLASSES.map(() => '---:').join('|')}|`,
    ...files.map((f) => {
      const xs = outcomes.filter((o) => o.file === f);
      return `| ${f} | ${xs.length} | ${KLASSES.map((k) => count(xs, k)).join(' | ')} |`;
    }),
    `| **all** | ${outcomes.length} | ${KLASSES.map((k) => count(outcomes, k)).join(' | ')} |`,
  ];
  const ran = outcomes.length - count(outcomes, 'skipped');
  const conv = count(outcomes, 'converged');
  const head = `sqldef: ${outcomes.length} cases in ${seconds} s; ${ran} ran, ${conv} converged (${ran ? Math.round((1000 * conv) / ran) / 10 : 0}% of those that ran)`;
  const notes = KLASSES.filter((k) => k !== 'converged').flatMap((k) => {
    const xs = outcomes.filter((o) => o.klass === k);
    return xs.length === 0 ? [] : [`${k} (${xs.length}):`, ...xs.map((o) => `  ${o.name} [${o.file}]: ${o.why}`)];
  });
  const caught = outcomes.filter((o) => /when --prove ran the plan/.test(o.why));
  const proveLine = PROVE
    ? `plan --prove ran before every apply: ${caught.length} plan(s) it caught (a refusal or no convergence on the copy), ${count(outcomes, 'refused-by-postgres')} refused by PostgreSQL at apply after it`
    : 'plan --prove off (SQLDEF_PROVE=0)';
  return [head, proveLine, '', ...rows, '', ...notes].join('\n');
}
