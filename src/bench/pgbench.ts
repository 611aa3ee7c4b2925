// --emit-pgbench: the same workload as pgbench custom scripts (one per workload, with \set lines)
// and the command line that runs them with their weights, to cross-check with pgbench.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CmError, EXIT } from '../errors.js';
import type { BenchSpec } from '../manifest/resolve-bench.js';
import type { BenchParam } from '../manifest/schema.js';
import { literal, placeholders, replacePlaceholders } from './statement.js';

function setLine(p: BenchParam, i: number, runC: number): string {
  const v = `p${i + 1}`;
  if ('int' in p) return `\\set ${v} random(${p.int[0]}, ${p.int[1]})`;
  if ('nurand' in p) {
    const [A, x, y] = p.nurand;
    return `\\set ${v} (((random(0, ${A}) | random(${x}, ${y})) + ${runC % (A + 1)}) % (${y - x + 1})) + ${x}`;
  }
  if ('const' in p && typeof p.const === 'number' && Number.isInteger(p.const)) return `\\set ${v} ${p.const}`;
  if ('pick' in p && p.pick.every((x) => typeof x === 'number' && Number.isInteger(x))) {
    return `\\set ${v} ${p.pick.map((x, k) => (k === p.pick.length - 1 ? String(x) : `case when random(1, ${p.pick.length - k}) = 1 then ${x} else`)).join(' ')}${' end'.repeat(p.pick.length - 1)}`;
  }
  return '';
}

/** Writes DIR/<workload>.sql and DIR/run.sh; returns the command line. */
export function emitPgbench(spec: BenchSpec, dir: string, opts: { clients: number; durationS?: number; transactions?: number; seed: number }): string {
  mkdirSync(dir, { recursive: true });
  const runC = opts.seed;
  let simple = false;
  const files: string[] = [];
  for (const w of spec.workloads) {
    const sets: string[] = [];
    const subst = w.params.map((p, i) => {
      const line = setLine(p, i, runC);
      if (line) { sets.push(line); return `:p${i + 1}`; }
      if ('const' in p) return literal(p.const);
      throw new CmError(`workload ${w.name}: parameter $${i + 1} (${Object.keys(p)[0]}) has no pgbench equivalent`, 'pgbench_unsupported', EXIT.error);
    });
    // At the parser's placeholders only: a "$1" inside a string literal or comment stays as written.
    const sql = replacePlaceholders(w.sql, placeholders(w.sql), (n) => subst[n - 1]!);
    if (w.protocol === 'simple-literals') simple = true;
    writeFileSync(join(dir, `${w.name}.sql`), `-- ${w.name}: written by citus-migrate bench --emit-pgbench\n${sets.join('\n')}${sets.length ? '\n' : ''}${sql};\n`);
    files.push(`-f ${w.name}.sql@${w.weight}`);
  }
  // CALL is delegated only with literal values: pgbench's simple mode interpolates them as text.
  const mode = simple ? 'simple' : 'prepared';
  const length = opts.transactions !== undefined ? `-t ${Math.max(1, Math.ceil(opts.transactions / opts.clients))}` : `-T ${opts.durationS ?? 30}`;
  const cmd = `pgbench -n -c ${opts.clients} -j ${Math.min(opts.clients, 4)} ${length} -M ${mode} --random-seed=${opts.seed} ${files.join(' ')} "$DATABASE_URL"`;
  writeFileSync(join(dir, 'run.sh'), `#!/bin/sh\n# pgbench cross-check of the citus-migrate bench workload\ncd "$(dirname "$0")"\n${cmd}\n`, { mode: 0o755 });
  return cmd;
}
