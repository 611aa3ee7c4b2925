#!/usr/bin/env node
// Large applies (issue #25): a 1,000-table schema (each table with a primary key, a CHECK, three
// indexes, a foreign key to the one before it, a comment, a grant and a trigger) is created in a
// database of a local PostgreSQL and adopted with `introspect`; its plan against an empty
// database has ~8,000 steps. Then, alternating in one run on fresh empty databases:
// `citus-migrate apply` of that manifest vs `psql -f` of the same plan's SQL (the same statements
// in the same one transaction). Prints both, per statement, the ratio, and apply's phases
// (`--timings`) of its last run. Target: apply no slower than psql per statement (ratio <= 1).
// Usage: npm run perf:large-apply   (TABLES=1000, RUNS=3, BENCH_URL=postgresql://…/postgres to use
// a running server, CLI=path/to/cli.js to time another build, DELAY_MS=2 to send apply's and
// psql's traffic through a proxy adding that one-way delay: a network, where each round trip counts).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { benchDatabases } from './lib/bench-db.mjs';
import { spawnDelayProxy } from './lib/delay-proxy.mjs';

const tables = Number(process.env.TABLES ?? 1000);
const runs = Number(process.env.RUNS ?? 3);
const cli = process.env.CLI ?? new URL('../dist/cli.js', import.meta.url).pathname;
const delayMs = Number(process.env.DELAY_MS ?? 0);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const log = (t) => process.stderr.write(`${t}\n`);

const { base, fresh, drop, close } = await benchDatabases();
// The timed runs' traffic goes through the delay proxy when DELAY_MS is set.
const proxy = delayMs > 0 ? await spawnDelayProxy([{ targetPort: Number(new URL(base).port) }], delayMs) : undefined;
const timedUrl = (url) => {
  if (!proxy) return url;
  const u = new URL(url);
  u.port = String(proxy.ports[0]);
  return u.toString();
};

function timed(cmd, args, opts = {}) {
  const t0 = performance.now();
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 1 << 30, ...opts });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}: ${(r.stderr ?? '').slice(-2000)}`);
  return { ms, stdout: r.stdout, stderr: r.stderr };
}

function schemaSql(n) {
  const sql = [
    'DO $$BEGIN CREATE ROLE large_apply_reader; EXCEPTION WHEN duplicate_object THEN NULL; END$$;',
    'CREATE SCHEMA app;',
    'CREATE FUNCTION app.touch() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN NEW.updated := now(); RETURN NEW; END $$;',
  ];
  for (let i = 0; i < n; i++) {
    const t = `app.t_${i}`;
    sql.push(
      `CREATE TABLE ${t} (id bigint PRIMARY KEY, tenant integer NOT NULL, parent bigint, name text, ` +
        `amount numeric(12,2) NOT NULL DEFAULT 0, updated timestamptz NOT NULL DEFAULT now(), CONSTRAINT t_${i}_amount CHECK (amount >= 0));`,
      `CREATE INDEX t_${i}_tenant ON ${t} (tenant);`,
      `CREATE INDEX t_${i}_name ON ${t} (name);`,
      `CREATE INDEX t_${i}_updated ON ${t} (updated);`,
      `COMMENT ON TABLE ${t} IS 'table ${i}';`,
      `GRANT SELECT ON ${t} TO large_apply_reader;`,
      `CREATE TRIGGER t_${i}_touch BEFORE UPDATE ON ${t} FOR EACH ROW EXECUTE FUNCTION app.touch();`,
    );
    if (i > 0)
      sql.push(`ALTER TABLE ${t} ADD CONSTRAINT t_${i}_parent FOREIGN KEY (parent) REFERENCES app.t_${i - 1} (id);`);
  }
  return sql.join('\n');
}

const dir = mkdtempSync(join(tmpdir(), 'perf-large-apply-'));
try {
  const t0 = performance.now();
  const src = await fresh('large_apply_src');
  const c = new pg.Client({ connectionString: src });
  await c.connect();
  await c.query(schemaSql(tables));
  await c.end();
  timed(process.execPath, [cli, 'introspect', '--database', src, '--out', join(dir, 'citus-migrate.yaml')]);
  const empty = await fresh('large_apply_plan');
  const doc = JSON.parse(
    timed(process.execPath, [cli, 'plan', '--database', empty, '--format', 'json'], { cwd: dir }).stdout,
  );
  const steps = doc.transaction.steps.length + doc.afterCommit.length;
  const statements = [...doc.transaction.steps, ...doc.afterCommit].reduce((n, s) => n + s.sql.length, 0);
  const planSql = join(dir, 'plan.sql');
  writeFileSync(
    planSql,
    timed(process.execPath, [cli, 'plan', '--database', empty, '--format', 'sql'], { cwd: dir }).stdout,
  );
  await drop('large_apply_plan');
  await drop('large_apply_src');
  log(
    `${tables} tables: ${steps} steps, ${statements} statements; built in ${((performance.now() - t0) / 1000).toFixed(0)} s`,
  );

  const applies = [];
  const psqls = [];
  let timings = '';
  for (let r = 0; r < runs; r++) {
    for (const which of r % 2 === 0 ? ['apply', 'psql'] : ['psql', 'apply']) {
      const url = timedUrl(await fresh(`large_apply_${which}`));
      if (which === 'psql') psqls.push(timed('psql', ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '-f', planSql, url]).ms);
      else {
        const a = timed(
          process.execPath,
          [cli, 'apply', '--database', url, '--auto-approve', '--allow-hazards', 'all', '--timings'],
          { cwd: dir, env: { ...process.env, NO_COLOR: '1' } },
        );
        applies.push(a.ms);
        timings = a.stderr
          .split('\n')
          .filter(
            (l) => l.startsWith('timings:') && /\b(start-up|read|plan and history|execute|verify|total)\b/.test(l),
          )
          .join('\n');
      }
      await drop(`large_apply_${which}`);
    }
    log(
      `  run ${r + 1}/${runs}: apply ${(applies.at(-1) / 1000).toFixed(2)} s, psql ${(psqls.at(-1) / 1000).toFixed(2)} s`,
    );
  }
  const a = median(applies);
  const p = median(psqls);
  console.log(
    `perf:large-apply (${process.env.CLI ? `CLI=${cli}, ` : ''}medians of ${runs}; plain PostgreSQL${delayMs > 0 ? `; ${delayMs} ms one-way delay` : ''})`,
  );
  console.log(`schema: ${tables} tables, plan of ${steps} steps, ${statements} statements in one transaction`);
  console.log(`citus-migrate apply: ${(a / 1000).toFixed(2)} s, ${(a / statements).toFixed(3)} ms per statement`);
  console.log(`psql -f plan.sql:    ${(p / 1000).toFixed(2)} s, ${(p / statements).toFixed(3)} ms per statement`);
  console.log(`ratio apply / psql: ${(a / p).toFixed(2)}x (target <= 1x)`);
  console.log(`apply's phases (last run, ms since start and ms):\n${timings}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
  await proxy?.stop();
  await close();
}
