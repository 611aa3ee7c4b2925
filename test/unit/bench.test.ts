// Bench building blocks without a server: seeded generators, TPC-C NURand, literals inlined at
// the placeholders PostgreSQL's parser finds, and the pgbench scripts.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { bindDataBounds, dataBoundsQuery, dataRefsOf } from '../../src/bench/data-bounds.js';
import { generator, randInt, seededRng } from '../../src/bench/params.js';
import { emitPgbench, pgbenchCommand } from '../../src/bench/pgbench.js';
import { shape } from '../../src/bench/statement.js';
import { countFlag, durationFlag, rateFlag } from '../../src/cli/flags.js';
import { loadParser } from '../../src/sql/pg-parse.js';
import { load } from '../support/manifest.js';
import { cli } from '../support/run-cli.js';

beforeAll(loadParser);

describe('generators', () => {
  it('repeat exactly for a seed and stay in range', () => {
    const a = seededRng(42);
    const b = seededRng(42);
    const xs = Array.from({ length: 1000 }, () => randInt(a, 5, 15));
    expect(xs).toEqual(Array.from({ length: 1000 }, () => randInt(b, 5, 15)));
    expect(Math.min(...xs)).toBe(5);
    expect(Math.max(...xs)).toBe(15);
  });

  it('NURand(1023, 1, 3000) stays in 1..3000 and is skewed', () => {
    const g = generator({ nurand: [1023, 1, 3000] }, 259);
    const r = seededRng(7);
    const counts = new Map<number, number>();
    for (let i = 0; i < 100_000; i++) {
      const v = g(r) as number;
      expect(v).toBeGreaterThanOrEqual(1);
      expect(v).toBeLessThanOrEqual(3000);
      counts.set(v, (counts.get(v) ?? 0) + 1);
    }
    const top = [...counts.values()]
      .sort((x, y) => y - x)
      .slice(0, 30)
      .reduce((s, x) => s + x, 0);
    expect(top / 100_000).toBeGreaterThan((30 / 3000) * 2); // the hottest 1% get far more than 1%
  });

  it('text and pick', () => {
    const r = seededRng(1);
    const t = generator({ text: [3, 5] }, 0)(r) as string;
    expect(t).toMatch(/^[a-zA-Z0-9]{3,5}$/);
    expect(['a', 'b']).toContain(generator({ pick: ['a', 'b'] }, 0)(r));
  });
});

describe('statement shape', () => {
  it("inlines CALL values as literals at the parser's placeholders, not inside strings", async () => {
    const m = await load(
      [
        'version: 1',
        'bench:',
        '  workloads:',
        `    w: { sql: "CALL p($1, '$2 stays', $2, $3, $4, $5, $6, $7, $8, $9, $10)", params: [ { int: [1, 1] }, { const: "it's" }, ${Array(7).fill('{ const: 0 }').join(', ')}, { const: 9 } ] }`,
      ].join('\n'),
    );
    const s = shape(m.bench!.workloads[0]!, 0);
    expect(s.protocol).toBe('simple-literals');
    expect(s.render([1, "it's", 0, 0, 0, 0, 0, 0, 0, 9]).text).toBe(
      "CALL p(1, '$2 stays', 'it''s', 0, 0, 0, 0, 0, 0, 0, 9)",
    );
  });

  it('sends SELECT as a named prepared statement, and CALL too when forced', async () => {
    const m = await load(
      [
        'version: 1',
        'bench:',
        '  workloads:',
        '    s: { sql: "SELECT f($1)", params: [ { int: [1, 2] } ] }',
        '    c: { sql: "CALL p($1)", params: [ { int: [1, 2] } ], protocol: prepared }',
      ].join('\n'),
    );
    const [s, c] = m.bench!.workloads.map((w, i) => shape(w, i));
    expect(s!.render([2])).toEqual({ text: 'SELECT f($1)', values: [2] });
    expect(s!.name).toBe('cm_bench_0');
    expect(c!.protocol).toBe('prepared');
  });
});

describe('--emit-pgbench', () => {
  it('writes one script per workload and a weighted command in simple mode for CALL', async () => {
    const m = await load(
      [
        'version: 1',
        'bench:',
        '  workloads:',
        '    new_order: { weight: 45, sql: "CALL neword($1, $2, $3)", params: [ { int: [1, 10] }, { const: 10 }, { nurand: [1023, 1, 3000] } ] }',
        '    stock: { weight: 4, sql: "SELECT slev($1)", params: [ { pick: [10, 15, 20] } ] }',
      ].join('\n'),
    );
    const dir = mkdtempSync(join(tmpdir(), 'cm-pgb-'));
    const run = emitPgbench(bindDataBounds(m.bench!, new Map()), dir, { clients: 8, durationS: 30, seed: 5 });
    expect(pgbenchCommand(run, (p) => basename(p), { raw: '"$DATABASE_URL"' })).toBe(
      'pgbench -n -c 8 -j 4 -T 30 -M simple --random-seed=5 -f new_order.sql@45 -f stock.sql@4 "$DATABASE_URL"',
    );
    expect(readFileSync(join(dir, 'run.sh'), 'utf8')).toContain(
      'cd "$(dirname "$0")"\npgbench -n -c 8 -j 4 -T 30 -M simple --random-seed=5 -f new_order.sql@45 -f stock.sql@4 "$DATABASE_URL"\n',
    );
    expect(readFileSync(join(dir, 'new_order.sql'), 'utf8')).toBe(
      [
        '-- new_order: written by citus-migrate bench --emit-pgbench',
        '\\set p1 random(1, 10)',
        '\\set p2 10',
        '\\set p3 (((random(0, 1023) | random(1, 3000)) + 5) % (3000)) + 1',
        'CALL neword(:p1, :p2, :p3);',
        '',
      ].join('\n'),
    );
    expect(readFileSync(join(dir, 'stock.sql'), 'utf8')).toContain(
      '\\set p1 case when random(1, 3) = 1 then 10 else case when random(1, 2) = 1 then 15 else 20 end end',
    );
  });
});

describe('--emit-pgbench placeholders', () => {
  it("replaces the parser's placeholders and leaves a $1 inside a string literal alone", async () => {
    const m = await load(
      [
        'version: 1',
        'bench:',
        '  workloads:',
        `    w: { sql: "SELECT f($1, '$1 text', $2)", params: [ { int: [1, 10] }, { const: "it's" } ] }`,
      ].join('\n'),
    );
    const dir = mkdtempSync(join(tmpdir(), 'cm-pgb-'));
    emitPgbench(bindDataBounds(m.bench!, new Map()), dir, { clients: 1, durationS: 1, seed: 1 });
    expect(readFileSync(join(dir, 'w.sql'), 'utf8').split('\n').slice(-2)).toEqual([
      "SELECT f(:p1, '$1 text', 'it''s');",
      '',
    ]);
  });
});

describe('bench flags', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cm-flags-'));
  writeFileSync(join(dir, 'citus-migrate.yaml'), 'version: 1\nbench:\n  workloads:\n    w: { sql: "SELECT 1" }\n');
  it.each([
    [
      ['--duration', '5x'],
      "error: option '--duration <duration>' argument '5x' is invalid. not a duration: expected a number followed by ms, s, m or h, such as 500ms, 30s, 5m or 1h\n",
    ],
    [
      ['--clients', '0'],
      "error: option '--clients <n>' argument '0' is invalid. not a count: expected a whole number of 1 or more\n",
    ],
    [
      ['--max-regression', '2'],
      "error: option '--max-regression <rate>' argument '2' is invalid. not a rate: a bare number is a fraction from 0 to 1 (0.1 is 10%); write 2% for 2 percent\n",
    ],
    [
      ['--max-error-rate', '101%'],
      "error: option '--max-error-rate <rate>' argument '101%' is invalid. not a rate: a percentage is from 0% to 100%\n",
    ],
    [
      ['--seed', '-1'],
      "error: option '--seed <n>' argument '-1' is invalid. not a seed: expected a whole number of 0 or more\n",
    ],
    [
      ['--min-tps', 'fast'],
      "error: option '--min-tps <n>' argument 'fast' is invalid. not a number: expected a number of 0 or more\n",
    ],
  ])('bad values exit 64 before anything runs: %j', async (args, message) => {
    const r = await cli(['bench', ...args, '--emit-pgbench', 'out'], { cwd: dir });
    expect(r.code).toBe(64);
    expect(r.stderr.split('(run with')[0]).toBe(message);
  });

  it('rates: 10% and 0.1 are the same; durations as in the manifest', () => {
    expect(rateFlag('10%')).toBe(0.1);
    expect(rateFlag('0.1')).toBe(0.1);
    expect(rateFlag('1')).toBe(1);
    expect(durationFlag('1.5s')).toBe(1500);
    expect(countFlag('8')).toBe(8);
    expect(() => countFlag('8.5')).toThrow('not a count');
  });
});

describe('--emit-pgbench command line', () => {
  const project = (): string => {
    const dir = mkdtempSync(join(tmpdir(), 'cm-pgbcmd-'));
    writeFileSync(join(dir, 'citus-migrate.yaml'), 'version: 1\nbench:\n  workloads:\n    w: { sql: "SELECT 1" }\n');
    return dir;
  };

  it('runs from where the user is, with the --database they gave (quoted for the shell)', async () => {
    const r = await cli(
      [
        'bench',
        '--emit-pgbench',
        'out dir/pgb',
        '--database',
        'postgresql://app@db.example:5432/shop?application_name=x y',
        '--duration',
        '5s',
      ],
      { cwd: project() },
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      "pgbench -n -c 8 -j 4 -T 5 -M prepared --random-seed=1 -f 'out dir/pgb/w.sql@1' 'postgresql://app@db.example:5432/shop?application_name=x%20y'\n",
    );
    expect(r.stderr).toBe('wrote 1 pgbench script and run.sh to out dir/pgb\n');
  });

  it('never prints the password: it is left out, and the user is told to pass it in PGPASSWORD', async () => {
    const dir = project();
    const r = await cli(
      ['bench', '--emit-pgbench', 'pgb', '--database', 'postgresql://app:s3cret%21@db.example/shop'],
      { cwd: dir },
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      'pgbench -n -c 8 -j 4 -T 30 -M prepared --random-seed=1 -f pgb/w.sql@1 postgresql://app@db.example/shop\n',
    );
    expect(r.stderr).toBe(
      'wrote 1 pgbench script and run.sh to pgb\nthe password in --database is not printed: pass it in PGPASSWORD (or ~/.pgpass) when you run the command\n',
    );
    expect(`${r.stdout}${r.stderr}${readFileSync(join(dir, 'pgb/run.sh'), 'utf8')}`).not.toMatch(/s3cret/);
  });

  it('never prints a password the URL class reads differently from libpq, nor one in a key=value string', async () => {
    const dir = project();
    for (const database of [
      'postgresql://app:12#s3cret@db.example/shop',
      'postgresql://app@db.example/shop?%70assword=s3cret',
      "host=db.example password='s3cret' dbname=shop",
    ]) {
      const r = await cli(['bench', '--emit-pgbench', 'pgb', '--database', database], { cwd: dir });
      expect(r.code).toBe(0);
      expect(`${r.stdout}${r.stderr}${readFileSync(join(dir, 'pgb/run.sh'), 'utf8')}`, database).not.toMatch(/s3cret/);
    }
  });

  it('without --database: DATABASE_URL from the environment, else the PG* variables pgbench reads itself', async () => {
    const dir = project();
    const env = await cli(['bench', '-f', join(dir, 'citus-migrate.yaml'), '--emit-pgbench', join(dir, 'abs')], {
      cwd: tmpdir(),
      env: { DATABASE_URL: 'postgresql://a:pw@h/d' },
    });
    expect(env.stdout).toBe(
      `pgbench -n -c 8 -j 4 -T 30 -M prepared --random-seed=1 -f ${join(dir, 'abs/w.sql')}@1 "$DATABASE_URL"\n`,
    );
    const none = await cli(['bench', '--emit-pgbench', 'pgb'], { cwd: dir });
    expect(none.stdout).toBe('pgbench -n -c 8 -j 4 -T 30 -M prepared --random-seed=1 -f pgb/w.sql@1\n');
  });
});

describe('parameter bounds from the data', () => {
  const bench = (params: string, tables = ''): string =>
    [
      'version: 1',
      'defaults: { schema: app }',
      tables,
      'bench:',
      '  workloads:',
      `    w: { sql: "SELECT f($1)", params: [ ${params} ] }`,
      '',
    ].join('\n');

  it('reads each distinct reference once, in one statement, names quoted by quote.ts', async () => {
    const m = await load(
      bench(
        '{ int: [{ min: warehouse.w_id }, { max: "\\"Odd\\".\\"Ware house\\".\\"W id\\"" }] }',
        'tables: { warehouse: { distributed_by: w_id } }',
      ),
    );
    const refs = dataRefsOf(m.bench!.workloads);
    expect(refs.map((r) => r.text)).toEqual(['min(warehouse.w_id)', 'max("Odd"."Ware house"."W id")']);
    expect(dataBoundsQuery(refs)).toBe(
      'SELECT (SELECT pg_catalog.min(w_id) FROM app.warehouse)::pg_catalog.text AS b0, (SELECT pg_catalog.max("W id") FROM "Odd"."Ware house")::pg_catalog.text AS b1',
    );
    expect(bindDataBounds(m.bench!, new Map(refs.map((r, i) => [r.key, i + 2]))).workloads[0]!.params).toEqual([
      { int: [2, 3] },
    ]);
    expect(() => bindDataBounds(m.bench!, new Map(refs.map((r, i) => [r.key, 5 - i])))).toThrow(
      'workload w: parameter $1 int range [5, 4] is empty (min(warehouse.w_id), max("Odd"."Ware house"."W id") read from the database)',
    );
  });

  it('checks references against the manifest', async () => {
    await expect(
      load(bench('{ int: [1, { max: warehouse.nope }] }', 'tables: { warehouse: { columns: { w_id: integer } } }')),
    ).rejects.toMatchObject({
      problems: [
        {
          path: 'bench.workloads.w.params[0].int[1].max',
          message: 'max(warehouse.nope): table warehouse has no column "nope"',
        },
      ],
    });
    await expect(load(bench('{ const: { max: w_id } }'))).rejects.toMatchObject({
      problems: [
        {
          path: 'bench.workloads.w.params[0].const.max',
          message: '"w_id" expected table.column or schema.table.column',
        },
      ],
    });
    const m = await load(bench('{ const: { max: other.t.c } }'));
    expect(m.warnings.map((p) => p.message)).toEqual([
      'max(other.t.c): table other.t is not in the manifest; it is read from the database as it is',
    ]);
  });
});
