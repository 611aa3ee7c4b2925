// pg_dump --schema-only of a test database, normalised for comparing two databases' schemas.
import { spawn, spawnSync } from 'node:child_process';
import type { TestDb } from './db.js';

function dumpArgs(db: TestDb, owners = false): { args: string[]; env: NodeJS.ProcessEnv } {
  const url = new URL(db.url);
  return {
    args: [
      '--schema-only',
      ...(owners ? [] : ['--no-owner']),
      '-N',
      'citus_migrate',
      '-h',
      url.hostname,
      '-p',
      url.port,
      '-U',
      decodeURIComponent(url.username),
      db.name,
    ],
    env: { ...process.env, PGPASSWORD: decodeURIComponent(url.password) },
  };
}

/**
 * pg_dump --schema-only --no-owner, without comments, SET lines and blank lines; a table's
 * column lines sorted (column order is not migrated) unless `exact`, where column order counts
 * and any pg_dump warning is an error. With `owners`, the owners too (no --no-owner).
 */
export function schemaDump(db: TestDb, opts: { exact?: boolean; owners?: boolean } = {}): string {
  const { args, env } = dumpArgs(db, opts.owners);
  const r = spawnSync('pg_dump', args, { encoding: 'utf8', env });
  if (r.status !== 0 || (opts.exact && r.stderr !== '')) throw new Error(r.stderr);
  return normaliseDump(r.stdout, opts);
}

/** pg_dump --schema-only --no-owner as pg_dump prints it (its `-- Name: …; Type: …` headers kept). */
export function rawDump(db: TestDb): string {
  const { args, env } = dumpArgs(db);
  const r = spawnSync('pg_dump', args, { encoding: 'utf8', env, maxBuffer: 256 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(r.stderr);
  return r.stdout;
}

/**
 * Each object's owner as pg_dump --schema-only (with owners) names it in its header ("Owner: x"),
 * keyed "type\tschema\tname"; objects without one ("Owner: -") left out.
 */
export function dumpOwners(db: TestDb): Map<string, string> {
  const { args, env } = dumpArgs(db, true);
  const r = spawnSync('pg_dump', args, { encoding: 'utf8', env, maxBuffer: 256 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(r.stderr);
  const out = new Map<string, string>();
  for (const line of r.stdout.split('\n')) {
    const m = /^-- Name: (.*); Type: (.*); Schema: (.*); Owner: ([^;]*)(?:; Tablespace: .*)?$/.exec(line);
    if (m && m[4] !== '-' && m[4] !== '') out.set(`${m[2]}\t${m[3]}\t${m[1]}`, m[4]!);
  }
  return out;
}

/** schemaDump without blocking the event loop (for cases run concurrently). */
export function schemaDumpAsync(db: TestDb, opts: { exact?: boolean } = {}): Promise<string> {
  const { args, env } = dumpArgs(db);
  return new Promise((resolve, reject) => {
    const p = spawn('pg_dump', args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let stderr = '';
    p.stdout.on('data', (d: Buffer) => out.push(d));
    p.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    p.on('close', (code) => {
      if (code !== 0 || (opts.exact && stderr !== '')) reject(new Error(stderr));
      else resolve(normaliseDump(Buffer.concat(out).toString('utf8'), opts));
    });
  });
}

/** The normalisation schemaDump applies to pg_dump's output. */
export function normaliseDump(text: string, opts: { exact?: boolean } = {}): string {
  const out: string[] = [];
  let table: string[] | undefined;
  for (const line of text.split('\n')) {
    if (
      line === '' ||
      line.startsWith('--') ||
      line.startsWith('SET ') ||
      line.startsWith('SELECT pg_catalog.set_config') ||
      line.startsWith('\\restrict') ||
      line.startsWith('\\unrestrict')
    )
      continue;
    if (table) {
      if (line.startsWith(')')) {
        out.push(...table.map((l) => l.replace(/,$/, '')).sort(), line);
        table = undefined;
      } else table.push(line);
    } else {
      // A table's storage parameters in the order they were set: the same parameters either way.
      const w = opts.exact ? null : /^WITH \((.*)\)(;?)$/.exec(line);
      out.push(w ? `WITH (${w[1]!.split(', ').sort().join(', ')})${w[2]}` : line);
      if (!opts.exact && /^CREATE (UNLOGGED )?TABLE .* \($/.test(line)) table = [];
    }
  }
  return out.join('\n');
}

/** One object of a pg_dump: its header's type, schema and name, and its normalised text. */
export interface DumpObject {
  readonly type: string;
  readonly schema: string;
  readonly name: string;
  readonly text: string;
}

/**
 * A raw pg_dump split at its `-- Name: N; Type: T; Schema: S; Owner: O` headers, keyed by
 * `T\tS\tN`: each object's text normalised as schemaDump does. A name pg_dump prints twice (an
 * overloaded operator's comment, say) gets `#2`, `#3`.
 */
export function dumpObjects(raw: string): Map<string, DumpObject> {
  const out = new Map<string, DumpObject>();
  let head: { type: string; schema: string; name: string; tablespace: string } | undefined;
  let body: string[] = [];
  const flush = (): void => {
    if (!head) return;
    const { tablespace, ...named } = head;
    const base = `${head.type}\t${head.schema}\t${head.name}`;
    let key = base;
    for (let n = 2; out.has(key); n++) key = `${base}#${n}`;
    // Its tablespace, which pg_dump says only in its header and a SET line (normaliseDump drops those).
    const text = normaliseDump(body.join('\n'));
    out.set(key, { ...named, text: tablespace !== '' ? `-- tablespace ${tablespace}\n${text}` : text });
  };
  for (const line of raw.split('\n')) {
    const m = /^-- (?:Data for )?Name: (.*); Type: (.*); Schema: (.*); Owner: [^;]*(?:; Tablespace: (.*))?$/.exec(line);
    if (m) {
      flush();
      head = { name: m[1]!, type: m[2]!, schema: m[3]!, tablespace: m[4] ?? '' };
      body = [];
    } else if (head) body.push(line);
  }
  flush();
  return out;
}
