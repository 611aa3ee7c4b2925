// The schema-change corpus (test/corpus/NNN-name/{old.sql,new.sql,case.json}): for each case,
// load new.sql, introspect it (--out, with prune), load old.sql elsewhere, apply the manifest,
// and require the same normalised `pg_dump --schema-only` (privileges included) and an empty
// re-plan. A case marked {"expect": "named"} holds a kind the tool does not manage: the plan
// must name it and a drift check must exit 2. A case marked {"expect": "problem", "codes": […]}
// is a change PostgreSQL would refuse: the plan must name it as a problem with one of those
// codes, and apply must refuse it with the old database unchanged. KNOWN_FAILING lists the cases
// expected to fail today; a suite fails when a case's outcome differs from that list either way.
// `npm test` runs a fixed-seed sample (integration/corpus.test.ts), `npm run test:corpora` all.
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseDocument } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { citusServers, freshDatabase, plainServers, sql, type TestDb } from './db.js';
import type { ServerInfo } from './servers.js';
import { cli } from './run-cli.js';
import { schemaDump } from './dump.js';

const CORPUS = join(import.meta.dirname, '..', 'corpus');
/** Cases that do not converge yet, with why. Keep it exact: a case that starts passing fails the test until removed. */
const KNOWN_FAILING = new Map<string, string>([]);

export interface Case {
  readonly name: string;
  readonly old: string;
  readonly new: string;
  readonly expect: 'converge' | 'named' | 'problem';
  readonly kinds: readonly string[];
  readonly codes: readonly string[];
}
export const corpusCases: Case[] = readdirSync(CORPUS)
  .sort()
  .map((name) => {
    const dir = join(CORPUS, name);
    const spec = existsSync(join(dir, 'case.json'))
      ? (JSON.parse(readFileSync(join(dir, 'case.json'), 'utf8')) as {
          expect?: 'named' | 'problem';
          kinds?: string[];
          codes?: string[];
        })
      : {};
    return {
      name,
      old: readFileSync(join(dir, 'old.sql'), 'utf8'),
      new: readFileSync(join(dir, 'new.sql'), 'utf8'),
      expect: spec.expect ?? 'converge',
      kinds: spec.kinds ?? [],
      codes: spec.codes ?? [],
    };
  });

function firstDifference(a: string, b: string): string {
  const x = a.split('\n');
  const y = b.split('\n');
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    if (x[i] !== y[i])
      return `line ${i + 1}: wanted ${JSON.stringify(x[i] ?? '(end)')}, got ${JSON.stringify(y[i] ?? '(end)')}`;
  }
  return '';
}

interface Planned {
  transaction: { steps: { summary: string }[] };
  afterCommit: unknown[];
  problems: { code: string; object: string; message: string }[];
  notManaged: { kind: string }[];
}

/** Runs one case; returns '' when it behaves as its spec says, else why not. */
async function runCase(c: Case, made: TestDb[], info: ServerInfo): Promise<string> {
  const created = await freshDatabase(info, 'cn');
  made.push(created);
  const loadNew = created.psql({ input: c.new });
  if (loadNew.status !== 0) return `new.sql does not load: ${loadNew.stderr.trim()}`;
  const dir = mkdtempSync(join(tmpdir(), 'cm-corpus-'));
  const file = join(dir, 'citus-migrate.yaml');
  const intro = await cli(['introspect', '--database', created.url, '--out', file]);
  if (intro.code !== 0) return `introspect exit ${intro.code}: ${intro.stderr.trim()}`;
  // (integers past 2^53 as bigints: the manifest holds sequence bounds up to bigint's)
  const doc = parseDocument(readFileSync(file, 'utf8'), { intAsBigInt: true });
  doc.set('prune', true);
  writeFileSync(file, doc.toString({ lineWidth: 0 }));
  const old = await freshDatabase(info, 'co');
  made.push(old);
  const loadOld = old.psql({ input: c.old });
  if (loadOld.status !== 0) return `old.sql does not load: ${loadOld.stderr.trim()}`;
  const planOf = async (db: TestDb): Promise<Planned> =>
    JSON.parse((await cli(['plan', '--database', db.url, '--format', 'json'], { cwd: dir })).stdout) as Planned;

  if (c.expect === 'named') {
    // The database holding the object is where the plan must name it.
    const holder = c.new.length > c.old.length ? created : old;
    const plan = await planOf(holder);
    const named = new Set(plan.notManaged.map((x) => x.kind));
    const missing = c.kinds.filter((k) => !named.has(k));
    if (missing.length > 0 && plan.problems.length === 0)
      return `not named: ${missing.join(', ')} (named: ${[...named].join(', ') || 'nothing'})`;
    const drift = await cli(['plan', '--database', holder.url, '--detailed-exitcode', '--include-unmanaged'], {
      cwd: dir,
    });
    if (drift.code !== 2) return `drift check exit ${drift.code}, wanted 2`;
    return '';
  }
  if (c.expect === 'problem') {
    const codes = (await planOf(old)).problems.map((p) => p.code);
    if (!codes.some((x) => c.codes.includes(x)))
      return `no problem ${c.codes.join(' or ')} (problems: ${codes.join(', ') || 'none'})`;
    const before = schemaDump(old);
    const refused = await cli(['apply', '--database', old.url, '--auto-approve', '--allow-hazards', 'all'], {
      cwd: dir,
    });
    if (refused.code === 0) return 'apply exit 0 despite the problem';
    if (schemaDump(old) !== before) return 'the refused apply changed the database';
    return '';
  }
  // With CORPUS_PROVE=1 (npm run test:corpora) the plan is proved first, on a scratch copy of old.
  if (process.env.CORPUS_PROVE === '1') {
    const proved = await cli(['plan', '--database', old.url, '--prove', '--format', 'json'], { cwd: dir });
    const p = JSON.parse(proved.stdout || '{}') as Partial<Planned> & { proof?: unknown; changes?: boolean };
    if (proved.code !== 0 || (p.changes && !p.proof))
      return `plan --prove exit ${proved.code}: ${(p.problems ?? []).map((x) => x.message).join('; ') || proved.stderr.trim().split('\n')[0]}`;
  }
  const apply = await cli(['apply', '--database', old.url, '--auto-approve', '--allow-hazards', 'all'], { cwd: dir });
  if (apply.code !== 0) return `apply exit ${apply.code}: ${apply.stderr.trim().split('\n').slice(-3).join(' | ')}`;
  const want = schemaDump(created);
  const got = schemaDump(old);
  if (want !== got) return `pg_dump differs: ${firstDifference(want, got)}`;
  const again = await planOf(old);
  const left = [
    ...again.transaction.steps.map((s) => s.summary),
    ...again.problems.map((p) => `${p.object}: ${p.message}`),
  ];
  if (left.length > 0) return `re-plan not empty: ${left.join('; ')}`;
  return '';
}

/** The cases on plain PostgreSQL, concurrently, and a summary of their outcomes. */
export function corpusSuite(title: string, cases: readonly Case[]): void {
  describe(title, () => {
    const outcomes = new Map<string, string>();

    it.concurrent.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
      // Each case drops its databases when it ends, so that the server stays small (dropping all
      // of them in one afterAll outlasted its hook timeout on a loaded machine).
      const made: TestDb[] = [];
      const why = await runCase(c, made, plainServers()).finally(async () => {
        for (const db of made)
          await sql(plainServers(), 'postgres', `DROP DATABASE IF EXISTS "${db.name}" WITH (FORCE)`).catch(
            () => undefined,
          );
      });
      outcomes.set(c.name, why);
      const known = KNOWN_FAILING.get(c.name);
      if (known === undefined)
        expect(why, `${c.name} ${c.expect === 'named' ? 'is not named' : 'does not converge'}`).toBe('');
      else
        expect(why, `${c.name} is listed in KNOWN_FAILING (${known}) but now passes: remove it from the list`).not.toBe(
          '',
        );
    });

    it('summary', () => {
      const failing = [...outcomes].filter(([, why]) => why !== '');
      process.stdout.write(
        `corpus: ${cases.length} cases, ${cases.filter((c) => c.expect === 'named').length} of them "named"; ${cases.length - failing.length} behave as specified, ${failing.length} do not (${KNOWN_FAILING.size} known)\n`,
      );
      for (const [name, why] of failing) process.stdout.write(`  ${name}: ${why}\n`);
    });
  });
}

/**
 * The cases on Citus, one at a time (setting up databases concurrently on a cluster is fragile).
 * Tables stay local there: Citus's own objects must neither be named nor planned, and what
 * converges on PostgreSQL converges on a coordinator too.
 */
export function corpusCitusSuite(title: string, cases: readonly Case[]): void {
  const citus = citusServers();
  describe.skipIf(!citus)(title, () => {
    const made: TestDb[] = [];
    afterAll(async () => {
      for (const db of made)
        for (const n of citus!.nodes.keys())
          await sql(citus!, 'postgres', `DROP DATABASE IF EXISTS "${db.name}" WITH (FORCE)`, n).catch(() => undefined);
    });
    it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
      const why = await runCase(c, made, citus!);
      const known = KNOWN_FAILING.get(c.name);
      if (known === undefined) expect(why, `${c.name} on Citus`).toBe('');
    });
  });
}
