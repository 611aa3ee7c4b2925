// A plan that is shown applies (plain PostgreSQL): each case was planned without a problem and
// then refused by PostgreSQL at apply, or wanted a change against the very database it came from.
// Each applies, converges (the next plan is empty) and keeps what the database holds.
import { describe, expect, it } from 'vitest';
import { freshDatabase, plainServers } from '../support/db.js';
import { projectDir } from '../support/project.js';
import { cli } from '../support/run-cli.js';

const server = plainServers();
const all = ['--auto-approve', '--allow-hazards', 'all'];

describe('plans that apply', () => {
  it('a column dropped with its index, and the unique expression index of a sql: file and CHECK on it (a revert of "add column + index")', async () => {
    const db = await freshDatabase(server, 'truth_order');
    const with_ = (columns: string, sql: string) =>
      projectDir({
        'citus-migrate.yaml': `version: 1
prune: true
tables:
  t:
    columns: { id: bigint, ${columns} }
    primary_key: [id]
sql: [objects.sql]
`,
        'objects.sql': sql,
      });
    const added = with_(
      'email: text, code: { type: text }',
      'CREATE INDEX t_email ON t (email);\nCREATE UNIQUE INDEX t_code ON t (lower(code));\nALTER TABLE t ADD CONSTRAINT t_code_len CHECK (length(code) < 10);\n',
    );
    expect((await cli(['apply', '--database', db.url, ...all], { cwd: added })).code).toBe(0);
    await db.query("INSERT INTO t VALUES (1, 'a@b', 'x')");
    const reverted = with_('keep: text', '');
    const r = await cli(['apply', '--database', db.url, ...all], { cwd: reverted });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('verified: planning again is empty');
    expect(await db.query('SELECT count(*)::int AS n FROM t')).toEqual([{ n: 1 }]);
  });

  it("a serial column's sequence declared with MINVALUE and START 1000 is restarted there when its table is created", async () => {
    const db = await freshDatabase(server, 'truth_seq');
    const dir = projectDir(`version: 1
tables:
  t: { columns: { id: serial, v: text }, primary_key: [id] }
sequences:
  t_id_seq: { min: 1000, start: 1000 }
`);
    const r = await cli(['apply', '--database', db.url, ...all], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(await db.query("INSERT INTO t (v) VALUES ('a') RETURNING id")).toEqual([{ id: 1000 }]);
    expect((await cli(['plan', '--database', db.url, '--detailed-exitcode'], { cwd: dir })).code).toBe(0);
  });

  it('a bigint sequence owned by an integer column (Rails) is introspected with its type: the plan against its own database is empty, and it is built again the same', async () => {
    const db = await freshDatabase(server, 'truth_rails');
    await db.query(`CREATE TABLE users (id integer NOT NULL PRIMARY KEY, v text);
      CREATE SEQUENCE users_id_seq OWNED BY users.id;
      ALTER TABLE users ALTER id SET DEFAULT nextval('users_id_seq'::regclass)`);
    const dir = projectDir({});
    const out = await cli(['introspect', '--database', db.url, '-o', 'citus-migrate.yaml'], { cwd: dir });
    expect(out.code, out.stderr).toBe(0);
    const again = await cli(['plan', '--database', db.url, '--detailed-exitcode'], { cwd: dir });
    expect(again.code, again.stdout).toBe(0);
    const copy = await freshDatabase(server, 'truth_rails_copy');
    expect((await cli(['apply', '--database', copy.url, ...all], { cwd: dir })).code).toBe(0);
    const shape = `SELECT format_type(s.seqtypid, NULL) AS seq, format_type(a.atttypid, a.atttypmod) AS col, pg_get_expr(d.adbin, d.adrelid) AS dflt
      FROM pg_sequence s JOIN pg_depend dep ON dep.objid = s.seqrelid AND dep.deptype = 'a'
      JOIN pg_attribute a ON a.attrelid = dep.refobjid AND a.attnum = dep.refobjsubid
      JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
      WHERE a.attrelid = 'public.users'::regclass`;
    expect(await copy.query(shape)).toEqual(await db.query(shape));
    expect(await copy.query(shape)).toEqual([
      { seq: 'bigint', col: 'integer', dflt: "nextval('users_id_seq'::regclass)" },
    ]);
  });

  it('a type change is rewrites_table exactly when PostgreSQL rewrites the table (pg_relation_filenode), and drops_data only when a value can be lost', async () => {
    const db = await freshDatabase(server, 'truth_rewrite');
    const cases: [string, string, string][] = [
      ['numeric(12,2)', 'numeric(14,2)', '1.5'],
      ['numeric(12,2)', 'numeric', '1.5'],
      ['numeric(12,2)', 'numeric(14,3)', '1.5'],
      ['bigint', 'numeric(20,0)', '9223372036854775807'],
      ['character varying(5)', 'character varying(20)', "'ab'"],
      ['character varying(5)', 'text', "'ab'"],
      ['text', 'character varying', "'ab'"],
      ['text', 'character varying(5)', "'ab'"],
      ['timestamp without time zone', 'timestamp with time zone', "'2024-01-01 10:00'"],
      ['timestamp(3) without time zone', 'timestamp(6) without time zone', "'2024-01-01 10:00'"],
      ['integer', 'bigint', '7'],
      ['character(5)', 'character(8)', "'ab'"],
    ];
    for (const [i, [from, , value]] of cases.entries())
      await db.query(`CREATE TABLE t${i} (id bigint PRIMARY KEY, c ${from}); INSERT INTO t${i} VALUES (1, ${value})`);
    const node = async (): Promise<number[]> =>
      (
        await db.query<{ n: string }>(
          `SELECT pg_relation_filenode(c.oid)::text AS n FROM generate_series(0, ${cases.length - 1}) g JOIN pg_class c ON c.relname = 't' || g ORDER BY g`,
        )
      ).map((r) => Number(r.n));
    const dir = projectDir(
      `version: 1\ntables:\n${cases.map(([, to], i) => `  t${i}: { columns: { id: bigint, c: { type: "${to}" } }, primary_key: [id] }\n`).join('')}`,
    );
    const planned = await cli(['plan', '--database', db.url, '--format', 'json'], { cwd: dir });
    const steps = (JSON.parse(planned.stdout) as { transaction: { steps: { summary: string; hazards: string[] }[] } })
      .transaction.steps;
    const before = await node();
    const r = await cli(['apply', '--database', db.url, ...all], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const after = await node();
    const seen = cases.map(([from, to], i) => {
      const step = steps.find((s) => s.summary.startsWith(`change public.t${i}.c `))!;
      return `${from} -> ${to}: rewritten ${before[i] !== after[i]}, planned ${step.hazards.join(' ') || 'no hazards'}`;
    });
    expect(seen).toEqual([
      'numeric(12,2) -> numeric(14,2): rewritten false, planned no hazards',
      'numeric(12,2) -> numeric: rewritten false, planned no hazards',
      'numeric(12,2) -> numeric(14,3): rewritten true, planned rewrites_table',
      'bigint -> numeric(20,0): rewritten true, planned rewrites_table',
      'character varying(5) -> character varying(20): rewritten false, planned no hazards',
      'character varying(5) -> text: rewritten false, planned no hazards',
      'text -> character varying: rewritten false, planned no hazards',
      'text -> character varying(5): rewritten true, planned rewrites_table drops_data',
      'timestamp without time zone -> timestamp with time zone: rewritten false, planned drops_data',
      'timestamp(3) without time zone -> timestamp(6) without time zone: rewritten false, planned no hazards',
      'integer -> bigint: rewritten true, planned rewrites_table',
      'character(5) -> character(8): rewritten true, planned rewrites_table',
    ]);
    expect(await db.query('SELECT c::text AS c FROM t3')).toEqual([{ c: '9223372036854775807' }]);
  });

  it('renamed_from renames a table, its columns and an index in place: rows, a foreign key and a view over them kept; a likely rename is named', async () => {
    const db = await freshDatabase(server, 'truth_rename');
    await db.query(`CREATE TABLE users (id bigint PRIMARY KEY, email text NOT NULL, name text);
      CREATE INDEX users_email ON users (email);
      CREATE TABLE orders (id bigint PRIMARY KEY, user_id bigint REFERENCES users (id), total numeric);
      INSERT INTO users SELECT g, 'u' || g, 'n' FROM generate_series(1, 100) g;
      INSERT INTO orders SELECT g, g, 1 FROM generate_series(1, 100) g;
      CREATE VIEW user_emails AS SELECT id, email FROM users`);
    const hinted = projectDir(`version: 1
tables:
  users: { columns: { id: bigint, email_address: { type: text, not_null: true }, name: text }, primary_key: [id] }
`);
    await db.query('ANALYZE users');
    const hint = await cli(['plan', '--database', db.url], { cwd: hinted });
    expect(hint.stdout).toContain('looks like a rename of email: declare renamed_from: email to keep its values');
    const dir = projectDir(`version: 1
tables:
  accounts:
    renamed_from: users
    columns:
      id: bigint
      email_address: { type: text, not_null: true, renamed_from: email }
      name: text
    primary_key: [id]
    indexes: [{ name: accounts_email, columns: [email_address], renamed_from: users_email }]
  orders:
    columns: { id: bigint, account_id: { type: bigint, renamed_from: user_id }, total: numeric }
    primary_key: [id]
    foreign_keys: [{ columns: [account_id], references: accounts, ref_columns: [id] }]
`);
    const planned = await cli(['plan', '--database', db.url, '--format', 'sql'], { cwd: dir });
    expect(planned.stdout.split('\n').filter((l) => /^ALTER (TABLE|INDEX)/.test(l))).toEqual([
      'ALTER TABLE public.users RENAME TO accounts;',
      'ALTER TABLE public.accounts RENAME COLUMN email TO email_address;',
      'ALTER INDEX public.users_email RENAME TO accounts_email;',
      'ALTER TABLE public.orders RENAME COLUMN user_id TO account_id;',
    ]);
    const r = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('verified: planning again is empty');
    expect(
      await db.query(
        "SELECT (SELECT count(*)::int FROM accounts) AS accounts, (SELECT count(*)::int FROM orders o JOIN accounts a ON a.id = o.account_id) AS joined, (SELECT count(*)::int FROM user_emails WHERE email LIKE 'u%') AS viewed",
      ),
    ).toEqual([{ accounts: 100, joined: 100, viewed: 100 }]);
    // Applied again: renamed_from is a no-op once the rename is done.
    expect((await cli(['plan', '--database', db.url, '--detailed-exitcode'], { cwd: dir })).code).toBe(0);
  });

  it('a routine that inserts into a column the plan drops, and a view of a sql: file that reads it, are plan problems at their file:line; apply changes nothing', async () => {
    const db = await freshDatabase(server, 'truth_callers');
    const files = (columns: string) => ({
      'citus-migrate.yaml': `version: 1
prune: true
tables:
  t: { columns: { id: bigint, ${columns}qty: integer }, primary_key: [id] }
routines:
  place: { file: place.sql }
sql: [views.sql]
`,
      'place.sql': `CREATE OR REPLACE PROCEDURE place(p_id bigint)
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO t (id, note, qty) VALUES (p_id, 'x', 1);
  UPDATE t SET qty = qty + 1 WHERE id = p_id;
END $$;
`,
      'views.sql': 'CREATE VIEW t_notes AS\n  SELECT id, note FROM t;\n',
    });
    expect((await cli(['apply', '--database', db.url, ...all], { cwd: projectDir(files('note: text, ')) })).code).toBe(
      0,
    );
    const dir = projectDir(files(''));
    const plan = await cli(['plan', '--database', db.url], { cwd: dir });
    expect(plan.code).not.toBe(0);
    expect(plan.stdout).toContain(
      'place.sql:4: routine public.place(bigint): names column public.t.note, which this plan drops: once the plan commits, every call fails',
    );
    expect(plan.stdout).toContain(
      'views.sql:1:1: view public.t_notes: names column public.t.note, which this plan drops',
    );
    const r = await cli(['apply', '--database', db.url, ...all], { cwd: dir });
    expect(r.code).not.toBe(0);
    expect(
      await db.query("SELECT count(*)::int AS n FROM pg_attribute WHERE attrelid = 't'::regclass AND attname = 'note'"),
    ).toEqual([{ n: 1 }]);
  });

  it("a live plan's problem about a declared table, column or grant is at its file:line, in plan and in apply's refusal", async () => {
    const db = await freshDatabase(server, 'truth_where');
    const reader = `${db.name}_reader`;
    await db.query(`CREATE TABLE users (id bigint PRIMARY KEY); CREATE ROLE ${reader}`);
    const dir = projectDir({
      'citus-migrate.yaml': `version: 1
tables:
  users: { columns: { id: bigint }, primary_key: [id] }
  ghost: { primary_key: [id] }
sql: [grants.sql]
`,
      'grants.sql': `GRANT SELECT ON TABLE users TO ${reader.slice(0, -1)};\n`,
    });
    const plan = await cli(['plan', '--database', db.url], { cwd: dir });
    expect(plan.code).toBe(1);
    expect(plan.stdout).toContain(
      'citus-migrate.yaml:4:10: public.ghost: is declared without columns (created elsewhere) but does not exist',
    );
    expect(plan.stdout).toContain(
      `grants.sql:1:1: privileges table public.users to ${reader.slice(0, -1)}: grants to role ${reader.slice(0, -1)}, which the server does not have; did you mean "${reader}"?`,
    );
    const r = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('  citus-migrate.yaml:4:10: public.ghost: is declared without columns');
  });

  it("a serial column's sequence follows its renamed table and column; a sequence renamed_from keeps its value", async () => {
    const db = await freshDatabase(server, 'truth_seq_rename');
    await db.query(`CREATE TABLE users (id serial PRIMARY KEY, n integer);
      INSERT INTO users (n) VALUES (1), (2);
      CREATE SEQUENCE counter START 50; SELECT nextval('counter')`);
    const dir = projectDir(`version: 1
tables:
  members:
    renamed_from: users
    columns: { member_id: { type: serial, renamed_from: id }, n: integer }
    primary_key: [member_id]
sequences:
  tally: { renamed_from: counter, start: 50 }
`);
    const planned = await cli(['plan', '--database', db.url, '--format', 'sql'], { cwd: dir });
    expect(planned.stdout.split('\n').filter((l) => l.startsWith('ALTER SEQUENCE'))).toEqual([
      'ALTER SEQUENCE public.users_id_seq RENAME TO members_member_id_seq;',
      'ALTER SEQUENCE public.counter RENAME TO tally;',
    ]);
    const r = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('verified: planning again is empty');
    expect(
      await db.query(
        "SELECT (SELECT max(member_id) FROM members) AS max, nextval('members_member_id_seq')::int AS next, nextval('tally')::int AS tally",
      ),
    ).toEqual([{ max: 2, next: 3, tally: 51 }]);
  });

  it("a UNIQUE on the primary key's own columns (PostgreSQL drops it from CREATE TABLE without a word) is added after the table, and the next plan is empty", async () => {
    const db = await freshDatabase(server, 'truth_unique_pk');
    const dir = projectDir(`version: 1
tables:
  t: { columns: { id: integer, v: text, w: text }, primary_key: [id], unique: [[id], [v, w], { name: t_vw_again, columns: [v, w] }] }
`);
    const r = await cli(['apply', '--database', db.url, ...all], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('verified: planning again is empty');
    expect(await db.query("SELECT conname FROM pg_constraint WHERE conrelid = 't'::regclass ORDER BY conname")).toEqual(
      [{ conname: 't_id_key' }, { conname: 't_pkey' }, { conname: 't_v_w_key' }, { conname: 't_vw_again' }],
    );
  });

  it('overloaded routines named by a keyword (extract) or in upper case are introspected under signature keys their own loader reads, and the plan on their database is empty', async () => {
    const db = await freshDatabase(server, 'truth_keyword_routines');
    await db.query(`CREATE FUNCTION public.extract(text) RETURNS int LANGUAGE sql AS 'SELECT 1';
      CREATE FUNCTION public.extract(int) RETURNS int LANGUAGE sql AS 'SELECT 2';
      CREATE FUNCTION public."Upper"(text) RETURNS int LANGUAGE sql AS 'SELECT 3';
      CREATE FUNCTION public."Upper"(int) RETURNS int LANGUAGE sql AS 'SELECT 4'`);
    const dir = projectDir({});
    const out = await cli(['introspect', '--database', db.url, '-o', 'citus-migrate.yaml'], { cwd: dir });
    expect(out.code, out.stderr).toBe(0);
    const p = await cli(['plan', '--database', db.url, '--detailed-exitcode'], { cwd: dir });
    expect(p.code, p.stdout + p.stderr).toBe(0);
  });
});

describe('plans PostgreSQL would refuse are refused first', () => {
  it('a partition key that calls what is not IMMUTABLE: a manifest error at its line, nothing run; PostgreSQL refuses the same key', async () => {
    const db = await freshDatabase(server, 'truth_key');
    const manifest = (key: string) => `version: 1
tables:
  events:
    columns: { at: { type: timestamptz, not_null: true }, n: integer }
    partition_by: range ((${key}))
    partitions:
      events_2024: { from: '2024-01-01', to: '2025-01-01' }
`;
    const r = await cli(['plan', '--database', db.url], { cwd: projectDir(manifest("date_trunc('day', at)")) });
    expect(r.code, r.stdout + r.stderr).toBe(3);
    expect(r.stderr).toMatch(/citus-migrate\.yaml:5:\d+: .*date_trunc\(…timestamp with time zone…\) is not IMMUTABLE/);
    // PostgreSQL's own answer to that key, so the error says what apply would have met.
    const refused = await db.query('SELECT 1').then(async () =>
      db
        .query("CREATE TABLE probe (at timestamptz) PARTITION BY RANGE ((date_trunc('day', at)))")
        .then(() => '')
        .catch((e: Error) => e.message),
    );
    expect(refused).toBe('functions in partition key expression must be marked IMMUTABLE');
    // The same day in UTC is immutable: planned and applied.
    const ok = await cli(['apply', '--database', db.url, ...all], {
      cwd: projectDir(manifest("date_trunc('day', at AT TIME ZONE 'UTC')")),
    });
    expect(ok.code, ok.stdout + ok.stderr).toBe(0);
    expect(await db.query('SELECT count(*)::int AS n FROM pg_partitioned_table')).toEqual([{ n: 1 }]);
  });
});
