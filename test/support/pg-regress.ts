// PostgreSQL's own regression SQL as a corpus (issue #40; `npm run test:pg-regress`, not part of
// `npm test`). The files are read at test time, never committed: from PG_REGRESS_SQL (a postgres
// checkout's src/test/regress/sql at REL_15), or else from a fetched pganalyze/libpg_query, whose
// 15-latest branch carries PostgreSQL 15's regression SQL as test/sql/postgres_regress (the postgres
// repository itself is too large to fetch here). Each file runs after test_setup.sql in a fresh
// database of a server of its own (the files create roles, tablespaces and settings), errors
// allowed as in `make installcheck` without its data files and regress.so; the database is then
// adopted, applied to an empty one and compared object by object (dump.ts dumpObjects).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freshDatabase, sql, type TestDb } from './db.js';
import { dumpObjects, dumpOwners } from './dump.js';
import { adoptApplyCompare, type SchemaOutcome } from './real-schemas.js';
import type { ServerInfo } from './servers.js';

const FROM_DIR = process.env.PG_REGRESS_SQL;
export const LIBPG_QUERY =
  process.env.PG_REGRESS_REPO ??
  join(import.meta.dirname, '..', '..', '..', '.mirror', 'pganalyze+libpg_query', 'repo');
const REF = '15-latest';
const SUBDIR = 'test/sql/postgres_regress';

/** Why the corpus cannot run here ('' when the files are there). */
export function pgRegressMissing(): string {
  if (FROM_DIR) return existsSync(join(FROM_DIR, 'test_setup.sql')) ? '' : `${FROM_DIR} has no test_setup.sql`;
  if (!existsSync(LIBPG_QUERY))
    return `${LIBPG_QUERY} is missing (set PG_REGRESS_SQL to a postgres checkout's src/test/regress/sql at REL_15)`;
  const r = spawnSync('git', ['-C', LIBPG_QUERY, 'cat-file', '-e', `${REF}:${SUBDIR}/test_setup.sql`]);
  return r.status === 0 ? '' : `${LIBPG_QUERY} has no ${REF}:${SUBDIR}/test_setup.sql`;
}

/** The files' names without `.sql`, sorted, test_setup (run before each) left out. */
export function pgRegressFiles(): string[] {
  const names = FROM_DIR
    ? readdirSync(FROM_DIR)
    : spawnSync('git', ['-C', LIBPG_QUERY, 'ls-tree', '--name-only', `${REF}:${SUBDIR}`], { encoding: 'utf8' })
        .stdout.split('\n')
        .filter((n) => n !== '');
  const files = names
    .filter((n) => n.endsWith('.sql'))
    .map((n) => n.slice(0, -4))
    .filter((n) => n !== 'test_setup');
  return [...files, ...Object.keys(DERIVED).filter((d) => files.includes(DERIVED[d]!.from))].sort();
}

/**
 * Files made at test time from one of PostgreSQL's, where its end drops what it made: its
 * statements up to a line, so that what it made is adopted (tablespace.sql moves every relation
 * out of its tablespace, then drops it and the schema).
 */
const DERIVED: Readonly<Record<string, { from: string; before: string }>> = {
  'tablespace-kept': { from: 'tablespace', before: 'ALTER TABLESPACE regress_tblspace RENAME TO' },
};

export function pgRegressSql(name: string): string {
  const derived = DERIVED[name];
  if (derived) {
    const text = pgRegressSql(derived.from);
    const at = text.indexOf(derived.before);
    if (at < 0) throw new Error(`${derived.from}.sql has no line starting ${derived.before}`);
    return text.slice(0, at);
  }
  if (FROM_DIR) return readFileSync(join(FROM_DIR, `${name}.sql`), 'utf8');
  const r = spawnSync('git', ['-C', LIBPG_QUERY, 'show', `${REF}:${SUBDIR}/${name}.sql`], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.status !== 0) throw new Error(`git show ${REF}:${SUBDIR}/${name}.sql: ${r.stderr}`);
  return r.stdout;
}

/** Per pg_dump object type: in the originals, equal in the copies, different, missing from them. */
export interface KindCounts {
  original: number;
  equal: number;
  differ: number;
  missing: number;
  /** Only in the copies (the tool made an object the original does not have). */
  extra: number;
}

export interface RegressOutcome extends SchemaOutcome {
  readonly kinds: Record<string, KindCounts>;
  /** Objects the original's pg_dump names an owner of, and how many have the same owner in the copy. */
  readonly owners?: { readonly original: number; readonly equal: number };
  /** A few objects of each kind that did not come through equal ("TYPE schema.name"). */
  readonly unequal: string[];
}

/** An ACL's GRANT lines come in the order of its aclitems, which means nothing: compared sorted. */
const sortedLines = (text: string): string => text.split('\n').sort().join('\n');

const counts = (): KindCounts => ({ original: 0, equal: 0, differ: 0, missing: 0, extra: 0 });

/** Object-by-object comparison of two raw pg_dumps, per type. */
export function compareByKind(original: string, copy: string): Pick<RegressOutcome, 'kinds' | 'unequal'> {
  const [a, b] = [dumpObjects(original), dumpObjects(copy)];
  const kinds: Record<string, KindCounts> = {};
  const unequal: string[] = [];
  const at = (t: string): KindCounts => (kinds[t] ??= counts());
  for (const [key, o] of a) {
    const c = at(o.type);
    c.original++;
    const other = b.get(key);
    if (!other) {
      c.missing++;
      unequal.push(`missing ${o.type} ${o.schema}.${o.name}`);
    } else if (other.text === o.text || (o.type === 'ACL' && sortedLines(other.text) === sortedLines(o.text)))
      c.equal++;
    else {
      c.differ++;
      unequal.push(`differs ${o.type} ${o.schema}.${o.name}`);
    }
  }
  for (const [key, o] of b)
    if (!a.has(key)) {
      at(o.type).extra++;
      unequal.push(`extra ${o.type} ${o.schema}.${o.name}`);
    }
  return { kinds, unequal };
}

/** Owners compared object by object: how many the original names, how many the copy gives the same. */
function compareOwners(
  a: ReadonlyMap<string, string>,
  b: ReadonlyMap<string, string>,
): { original: number; equal: number; unequal: string[] } {
  let equal = 0;
  const unequal: string[] = [];
  for (const [key, owner] of a)
    if (b.get(key) === owner) equal++;
    else unequal.push(`owner of ${key.replaceAll('\t', ' ')}: ${owner} → ${b.get(key) ?? 'none'}`);
  return { original: a.size, equal, unequal };
}

/** The roles and tablespaces a file made (the server's shared objects), dropped after it as far as they go. */
export async function dropSharedLeftovers(info: ServerInfo, roles: ReadonlySet<string>): Promise<void> {
  const spaces = await sql<{ spcname: string }>(
    info,
    'postgres',
    "SELECT spcname FROM pg_catalog.pg_tablespace WHERE spcname NOT IN ('pg_default', 'pg_global')",
  );
  for (const { spcname } of spaces) await sql(info, 'postgres', `DROP TABLESPACE "${spcname}"`).catch(() => undefined);
  const now = await sql<{ rolname: string }>(info, 'postgres', 'SELECT rolname FROM pg_catalog.pg_roles');
  for (const { rolname } of now)
    if (!roles.has(rolname))
      await sql(info, 'postgres', `DROP ROLE "${rolname.replaceAll('"', '""')}"`).catch(() => undefined);
}

/** Runs one regression file (after test_setup) in a fresh database, then adopts, applies and compares. */
export async function runRegressFile(
  name: string,
  info: ServerInfo,
  made: TestDb[],
  env: { libdir: string },
): Promise<RegressOutcome> {
  const started = performance.now();
  const original = await freshDatabase(info, 'pr');
  made.push(original);
  const work = mkdtempSync(join(tmpdir(), `cm-pgr-${name}-`));
  const file = join(work, 'load.sql');
  writeFileSync(file, `${pgRegressSql('test_setup')}\n${pgRegressSql(name)}\n`);
  // PG_ABS_SRCDIR points nowhere: the data files are not read, as the schema is what counts.
  const load = spawnSync('psql', ['-X', '-q', '-v', 'ON_ERROR_STOP=0', '-d', original.url, '-f', file], {
    cwd: work,
    encoding: 'utf8',
    timeout: 180_000,
    maxBuffer: 64 * 1024 * 1024,
    env: {
      ...process.env,
      PGOPTIONS: '-c statement_timeout=30s -c lock_timeout=10s',
      PG_ABS_SRCDIR: join(work, 'no-data'),
      PG_ABS_BUILDDIR: work,
      PG_LIBDIR: env.libdir,
      PG_DLSUFFIX: '.so',
    },
  });
  const loadErrors = (load.stderr ?? '').split('\n').filter((l) => l.includes('ERROR:')).length;
  // A prepared transaction the file left would hold its tables (and DROP DATABASE) for ever.
  const left = await sql<{ gid: string }>(
    info,
    'postgres',
    `SELECT gid FROM pg_catalog.pg_prepared_xacts WHERE database = '${original.name}'`,
  );
  for (const { gid } of left) await sql(info, original.name, `ROLLBACK PREPARED '${gid.replaceAll("'", "''")}'`);
  const c = await adoptApplyCompare(`pgr-${name}`, original, info, made);
  const byKind = c.dumps ? compareByKind(c.dumps.original, c.dumps.copy) : { kinds: {}, unequal: [] };
  // The copy is the database adoptApplyCompare made last.
  const owners = c.dumps ? compareOwners(dumpOwners(original), dumpOwners(made[made.length - 1]!)) : undefined;
  if (owners) byKind.unequal.push(...owners.unequal);
  return {
    ...c.outcome,
    ...(owners ? { owners: { original: owners.original, equal: owners.equal } } : {}),
    schema: name,
    loadErrors,
    expectedLoadErrors: loadErrors,
    ...byKind,
    seconds: Math.round((performance.now() - started) / 100) / 10,
  };
}
