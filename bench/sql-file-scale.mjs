#!/usr/bin/env node
// One `sql:` file of N statements against the same statements split in files of 1,000: times
// `validate` (read, parse, locate every statement, resolve) for N = 5k, 10k, 20k, 40k and prints
// the ratio of each time to the previous one (≈2 when the work is linear in N, ≈4 when quadratic).
// Usage: npm run build && node bench/sql-file-scale.mjs   (SIZES=5000,10000 to choose N).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const sizes = (process.env.SIZES ?? '5000,10000,20000,40000').split(',').map(Number);
const cli = process.env.CLI ?? new URL('../dist/cli.js', import.meta.url).pathname; // CLI=… to time another build

// Views, their comments and enums with a label added later: objects the SQL reader locates one by one.
const statements = (n) =>
  Array.from({ length: n }, (_, i) => {
    const k = Math.floor(i / 4);
    return [
      `-- view ${k}\nCREATE VIEW v${k} AS SELECT ${k} AS x, 'é' AS y;`,
      `COMMENT ON VIEW v${k} IS 'view ${k}';`,
      `CREATE TYPE e${k} AS ENUM ('a', 'b');`,
      `ALTER TYPE e${k} ADD VALUE 'c';`,
    ][i % 4];
  });

function timeValidate(files) {
  const dir = mkdtempSync(join(tmpdir(), 'cm-sqlscale-'));
  mkdirSync(join(dir, 'sql'));
  files.forEach((text, i) => writeFileSync(join(dir, 'sql', `f${String(i).padStart(3, '0')}.sql`), text));
  writeFileSync(join(dir, 'citus-migrate.yaml'), 'version: 1\nsql: [sql/]\n');
  const t = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [cli, 'validate', '-f', join(dir, 'citus-migrate.yaml')], { encoding: 'utf8' });
  const s = Number(process.hrtime.bigint() - t) / 1e9;
  if (r.status !== 0) throw new Error(`validate failed (${r.status}): ${r.stderr.slice(0, 2000)}`);
  return s;
}

let previous;
console.log('statements  one file (s)  ratio  files of 1,000 (s)');
for (const n of sizes) {
  const all = statements(n);
  const one = timeValidate([all.join('\n')]);
  const chunks = [];
  for (let i = 0; i < n; i += 1000) chunks.push(all.slice(i, i + 1000).join('\n'));
  const split = timeValidate(chunks);
  const ratio = previous ? (one / previous).toFixed(2) : '-';
  console.log(
    `${String(n).padStart(10)}  ${one.toFixed(2).padStart(12)}  ${ratio.padStart(5)}  ${split.toFixed(2).padStart(18)}`,
  );
  previous = one;
}
