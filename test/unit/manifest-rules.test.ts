// Every validation rule of manifest.md: a failing manifest, its exact message, file:line:col and path.
import { describe, expect, it } from 'vitest';
import { load, problems } from '../support/manifest.js';

const yaml = (lines: string[]): string => `${lines.join('\n')}\n`;

describe('schema: shape and types', () => {
  it('reports unknown keys at the key, all together', async () => {
    expect(
      await problems(yaml(['version: 1', 'tabels: {}', 'tables:', '  t: { distributed_by: id, colour: red }'])),
    ).toEqual([
      'error: m.yaml:2:1: tabels: unknown key "tabels"; did you mean "tables"?',
      'error: m.yaml:4:28: tables.t.colour: unknown key "colour"',
    ]);
  });

  it('requires version 1', async () => {
    expect(await problems('tables: {}\n')).toEqual(['error: m.yaml:1:1: version: is required']);
    expect(await problems('version: 2\n')).toEqual(['error: m.yaml:1:10: version: expected 1, got number 2']);
  });

  it('reports wrong types with what was found', async () => {
    expect(await problems(yaml(['version: 1', 'tables:', '  t:', '    reference: "yes"']))).toEqual([
      'error: m.yaml:4:16: tables.t.reference: expected boolean, got the string "yes"',
    ]);
  });

  it('reports YAML syntax errors with their position', async () => {
    const out = await problems('version: 1\ntables: [\n');
    expect(out).toHaveLength(1);
    expect(out[0]).toMatch(/^error: m\.yaml:3:1: /);
  });

  it('refuses duplicate keys', async () => {
    const out = await problems(yaml(['version: 1', 'tables:', '  t: {}', '  t: {}']));
    expect(out).toEqual(['error: m.yaml:4:3: key "t" appears twice in the same mapping; each key may appear once']);
  });

  it('says what is wrong with the YAML in plain words, at the offending token', async () => {
    expect(await problems(yaml(['version: 1', 'tables:', '  t: distributed_by: id']))).toEqual([
      'error: m.yaml:3:6: a nested mapping cannot start on the same line as its key: put it on the lines below, indented, or write it as { key: value }',
    ]);
    expect(
      await problems(yaml(['version: 1', 'tables:', '  t:', '    local: true', '   columns: { a: int }'])),
    ).toEqual([
      'error: m.yaml:5:4: this line is indented differently from the keys above it in the same mapping: give it the same number of spaces',
    ]);
    expect(await problems(yaml(['version: 1', 'tables:', '  t: { local: true, columns: { a: int }']))).toEqual([
      'error: m.yaml:4:1: a { … } mapping that starts above is not closed: add the missing }',
    ]);
  });

  it('suggests the closest allowed key for a typo, and only for a typo', async () => {
    expect(
      await problems(
        yaml([
          'version: 1',
          'colocation: { g: { shardcount: 4 } }',
          'tables:',
          '  t: { distribute_by: id, colocation: g, columns: { id: { type: int, Not_Null: true } }, indexs: [] }',
          'routines:',
          '  f: { signatur: "f()" }',
          'prune: true',
          'sequence: {}',
        ]),
      ),
    ).toEqual([
      'error: m.yaml:2:20: colocation.g.shardcount: unknown key "shardcount"; did you mean "shard_count"?',
      'error: m.yaml:4:8: tables.t.distribute_by: unknown key "distribute_by"; did you mean "distributed_by"?',
      'error: m.yaml:4:70: tables.t.columns.id.Not_Null: unknown key "Not_Null"; did you mean "not_null"?',
      'error: m.yaml:4:90: tables.t.indexs: unknown key "indexs"; did you mean "indexes"?',
      'error: m.yaml:6:8: routines.f.signatur: unknown key "signatur"; did you mean "signature"?',
      'error: m.yaml:8:1: sequence: unknown key "sequence"; did you mean "sequences"?',
    ]);
    expect(
      await problems(yaml(['version: 1', 'tables:', '  t: { local: true, id: 1, reference_table: true }'])),
    ).toEqual([
      'error: m.yaml:3:21: tables.t.id: unknown key "id"',
      'error: m.yaml:3:28: tables.t.reference_table: unknown key "reference_table"',
    ]);
  });

  it('checks group shard counts are 1..64000', async () => {
    expect(
      await problems(yaml(['version: 1', 'colocation:', '  g: { shard_count: 0 }', '  h: { shard_count: 64001 }'])),
    ).toEqual([
      'error: m.yaml:3:21: colocation.g.shard_count: shard count must be between 1 and 64000',
      'error: m.yaml:4:21: colocation.h.shard_count: shard count must be between 1 and 64000',
    ]);
  });
});

describe('tables', () => {
  it('a table is at most one of distributed / reference / local / single_shard', async () => {
    expect(
      await problems(yaml(['version: 1', 'tables:', '  t: { distributed_by: id, reference: true, local: true }'])),
    ).toEqual([
      'error: m.yaml:3:6: tables.t: a table is at most one of distributed, reference, local and single_shard; this one is distributed (distributed_by) and reference and local',
    ]);
  });

  it('primary keys and unique constraints of a distributed table include its distribution column', async () => {
    expect(
      await problems(
        yaml([
          'version: 1',
          'tables:',
          '  orders:',
          '    distributed_by: o_w_id',
          '    columns: { o_id: integer, o_w_id: integer }',
          '    primary_key: [o_id]',
          '    unique: [[o_id, o_w_id], [o_id]]',
          '    indexes: [ { columns: [o_id], unique: true } ]',
        ]),
      ),
    ).toEqual([
      'error: m.yaml:6:18: tables.orders.primary_key: primary key (o_id) does not include the distribution column "o_w_id"; Citus enforces uniqueness only per shard',
      'error: m.yaml:7:30: tables.orders.unique[1]: unique constraint (o_id) does not include the distribution column "o_w_id"; Citus enforces uniqueness only per shard',
      'error: m.yaml:8:16: tables.orders.indexes[0]: unique index (o_id) does not include the distribution column "o_w_id"; Citus enforces uniqueness only per shard',
    ]);
  });

  it('matches the distribution column verbatim (case-sensitive) and hints at the near miss', async () => {
    expect(
      await problems(
        yaml(['version: 1', 'tables:', '  t:', '    distributed_by: W_ID', '    columns: { w_id: integer }']),
      ),
    ).toEqual([
      'error: m.yaml:4:21: tables.t.distributed_by: distribution column "W_ID" is not a column of this table (names are case-sensitive: did you mean "w_id"?)',
    ]);
  });

  it('parses column types and defaults with the PostgreSQL grammar', async () => {
    expect(
      await problems(
        yaml([
          'version: 1',
          'tables:',
          '  t:',
          '    columns:',
          '      a: "integer, evil integer"',
          '      b: { type: text, default: "1; DROP TABLE x" }',
          '      c: "numeric(12"',
        ]),
      ),
    ).toEqual([
      'error: m.yaml:5:10: tables.t.columns.a: type "integer, evil integer": not a single type name (constraints, defaults and collations have their own fields)',
      'error: m.yaml:6:33: tables.t.columns.b.default: default "1; DROP TABLE x": not a single expression',
      'error: m.yaml:7:10: tables.t.columns.c: type "numeric(12": not a type: syntax error at end of input',
    ]);
  });

  it('refuses colocation or shard_count without distributed_by, and an undeclared group', async () => {
    expect(
      await problems(
        yaml([
          'version: 1',
          'tables:',
          '  a: { reference: true, colocation: g }',
          '  b: { distributed_by: id, colocation: nope }',
        ]),
      ),
    ).toEqual([
      'error: m.yaml:3:37: tables.a.colocation: colocation needs distributed_by: only hash-distributed tables join colocation groups',
      'error: m.yaml:4:40: tables.b.colocation: colocation group "nope" is not declared under colocation',
    ]);
  });

  it('refuses names longer than 63 bytes and malformed qualified names', async () => {
    const long = 'x'.repeat(64);
    expect(
      await problems(
        yaml([
          'version: 1',
          'tables:',
          `  ${long}: { local: true }`,
          '  a.b.c: { local: true }',
          '  "\\"unterminated": { local: true }',
        ]),
      ),
    ).toEqual([
      `error: m.yaml:3:3: tables.${long}: table name "${long}" is 64 bytes long; PostgreSQL identifiers are at most 63 bytes`,
      'error: m.yaml:4:3: tables["a.b.c"]: table name "a.b.c" has more than two dotted parts (expected name or schema.name)',
      'error: m.yaml:5:3: tables["\\"unterminated"]: table name "\\"unterminated" has an unterminated double quote',
    ]);
  });
});

describe('colocation groups', () => {
  const group = (types: [string, string]): string =>
    yaml([
      'version: 1',
      'colocation: { g: { shard_count: 8 } }',
      'tables:',
      `  a: { distributed_by: id, colocation: g, columns: { id: ${types[0]} } }`,
      `  b: { distributed_by: id, colocation: g, columns: { id: ${types[1]} } }`,
    ]);

  it('refuses int vs bigint in one group', async () => {
    expect(await problems(group(['integer', 'bigint']))).toEqual([
      'error: m.yaml:5:24: tables.b.distributed_by: colocation group "g" mixes distribution column types: a.id is integer, b.id is bigint; Citus colocates only identical types',
    ]);
  });

  it('refuses text vs varchar in one group', async () => {
    expect(await problems(group(['text', 'varchar(10)']))).toEqual([
      'error: m.yaml:5:24: tables.b.distributed_by: colocation group "g" mixes distribution column types: a.id is text, b.id is character varying; Citus colocates only identical types',
    ]);
  });

  it('treats int, int4 and integer (and serial) as one type', async () => {
    expect(await problems(group(['int4', 'serial']))).toEqual([]);
  });

  it('requires the anchor to be a member', async () => {
    expect(
      await problems(
        yaml([
          'version: 1',
          'colocation: { g: { anchor: c } }',
          'tables:',
          '  a: { distributed_by: id, colocation: g }',
          '  c: { reference: true }',
        ]),
      ),
    ).toEqual(['error: m.yaml:2:28: colocation.g.anchor: anchor "c" is not a member of group "g" (members: a)']);
  });

  it('warns about a group without members', async () => {
    expect(await problems(yaml(['version: 1', 'colocation: { g: {} }']))).toEqual([
      'warning: m.yaml:2:18: colocation.g: colocation group "g" has no member tables',
    ]);
  });
});

describe('foreign keys', () => {
  const base = [
    'version: 1',
    'colocation: { g: {}, h: {} }',
    'tables:',
    '  w: { distributed_by: w_id, colocation: g, columns: { w_id: integer }, primary_key: [w_id] }',
    '  other: { distributed_by: o_id, colocation: h, columns: { o_id: integer }, primary_key: [o_id] }',
    '  item: { reference: true, columns: { i_id: integer }, primary_key: [i_id] }',
  ];

  it('allows distributed -> reference and colocated on the distribution column', async () => {
    expect(
      await problems(
        yaml([
          ...base,
          '  d:',
          '    distributed_by: d_w_id',
          '    colocation: g',
          '    columns: { d_w_id: integer, i: integer }',
          '    foreign_keys:',
          '      - { columns: [d_w_id], references: w, ref_columns: [w_id] }',
          '      - { columns: [i], references: item, ref_columns: [i_id] }',
        ]),
      ),
    ).toEqual([]);
  });

  it('refuses local -> distributed (Citus accepts it but does not enforce it)', async () => {
    expect(
      await problems(
        yaml([
          ...base,
          '  audit:',
          '    local: true',
          '    columns: { w: integer }',
          '    foreign_keys: [ { columns: [w], references: w, ref_columns: [w_id] } ]',
        ]),
      ),
    ).toEqual([
      'error: m.yaml:10:49: tables.audit.foreign_keys[0].references: a local table cannot reference distributed table public.w: Citus accepts it but does not enforce it from the parent side (deleting a parent row leaves orphans)',
    ]);
  });

  it('refuses a key across colocation groups and one not on the distribution column', async () => {
    expect(
      await problems(
        yaml([
          ...base,
          '  d:',
          '    distributed_by: d_w_id',
          '    colocation: g',
          '    columns: { d_w_id: integer, x: integer }',
          '    foreign_keys:',
          '      - { columns: [d_w_id], references: other, ref_columns: [o_id] }',
          '      - { columns: [x], references: w, ref_columns: [w_id] }',
        ]),
      ),
    ).toEqual([
      'error: m.yaml:12:42: tables.d.foreign_keys[0].references: references public.other of colocation group "h", not of this table\'s group "g"; foreign keys between distributed tables need one colocation group',
      'error: m.yaml:13:37: tables.d.foreign_keys[1].references: a foreign key between colocated tables must match distribution column "d_w_id" to "w_id"',
    ]);
  });

  it('refuses reference -> distributed and an undeclared target', async () => {
    expect(
      await problems(
        yaml([
          ...base,
          '  r:',
          '    reference: true',
          '    columns: { w: integer }',
          '    foreign_keys: [ { columns: [w], references: w, ref_columns: [w_id] }, { columns: [w], references: ghost, ref_columns: [id] } ]',
        ]),
      ),
    ).toEqual([
      'error: m.yaml:10:49: tables.r.foreign_keys[0].references: a reference table can only reference reference or citus_local tables, not distributed table public.w',
      'error: m.yaml:10:103: tables.r.foreign_keys[1].references: references "ghost", which the manifest does not declare',
    ]);
  });
});

describe('routines', () => {
  const tables = [
    'version: 1',
    'colocation: { wh: {} }',
    'tables:',
    '  warehouse: { distributed_by: w_id, colocation: wh, columns: { w_id: integer } }',
    '  item: { reference: true }',
  ];
  const neword =
    'CREATE PROCEDURE neword(no_w_id integer, INOUT total numeric) LANGUAGE plpgsql AS $$ BEGIN total := 0; END $$;';

  it('resolves a distribution argument by name or $N from the parsed file', async () => {
    expect(
      await problems(
        yaml([...tables, 'routines:', '  neword: { file: p/neword.sql, distributed_by: no_w_id, colocation: wh }']),
        { 'p/neword.sql': neword },
      ),
    ).toEqual([]);
  });

  it('compiles PL/pgSQL bodies at validate, locating the error in the routine file (line:col in characters)', async () => {
    const m = yaml([...tables, 'routines:', '  neword: { file: p/neword.sql }']);
    expect(await problems(m, { 'p/neword.sql': neword })).toEqual([]);
    const bad =
      'CREATE PROCEDURE neword(no_w_id integer, INOUT total numeric)\nLANGUAGE plpgsql AS $$\nBEGIN\n  total := 0; -- größe ½\n  IF total > 0 THEN total := 1; END;\nEND $$;';
    expect(await problems(m, { 'p/neword.sql': bad })).toEqual([
      'error: m.yaml:7:19: routines.neword.file: p/neword.sql:5:36: PL/pgSQL: syntax error at or near ";"',
    ]);
    const sameLine =
      "CREATE PROCEDURE neword(no_w_id integer, INOUT total numeric) LANGUAGE plpgsql AS $$ BEGIN total := '½'::numeric; totl := 1; END $$;";
    expect(await problems(m, { 'p/neword.sql': sameLine })).toEqual([
      'error: m.yaml:7:19: routines.neword.file: p/neword.sql:1:115: PL/pgSQL: "totl" is not a known variable',
    ]);
    // OPEN on a refcursor parameter (by name or $N) compiles in PostgreSQL (its plpgsql.sql); the
    // offline compiler knows no parameter's type, and is not believed there. On an integer one it is.
    const cursor = (sig: string, v: string): string =>
      `CREATE PROCEDURE neword(${sig}) LANGUAGE plpgsql AS $$ BEGIN OPEN ${v} FOR SELECT 1; END $$;`;
    expect(await problems(m, { 'p/neword.sql': cursor('rc refcursor', 'rc') })).toEqual([]);
    expect(await problems(m, { 'p/neword.sql': cursor('refcursor', '$1') })).toEqual([]);
    expect(await problems(m, { 'p/neword.sql': cursor('rc integer', 'rc') })).toEqual([
      expect.stringContaining('PL/pgSQL: variable "rc" must be of type cursor or refcursor'),
    ]);
    // A SQL-language body is not PL/pgSQL: left to PostgreSQL.
    expect(
      await problems(m, { 'p/neword.sql': 'CREATE PROCEDURE neword(a integer) LANGUAGE sql AS $$ SELECT 1 $$;' }),
    ).toEqual([]);
  });

  it('refuses a distribution argument that is not an argument, or out of range', async () => {
    expect(
      await problems(
        yaml([
          ...tables,
          'routines:',
          '  neword: { file: p/neword.sql, distributed_by: w, colocation: wh }',
          '  payment: { signature: "payment(integer)", distributed_by: $2, colocation: wh }',
        ]),
        { 'p/neword.sql': neword },
      ),
    ).toEqual([
      'error: m.yaml:7:49: routines.neword.distributed_by: distributed_by "w" is not an argument of public.neword (arguments: no_w_id, total)',
      'error: m.yaml:8:61: routines.payment.distributed_by: distributed_by "$2" is out of range: public.payment takes 1 argument',
    ]);
  });

  it('warns when the argument type is not the group column type or implicitly cast to it (Citus accepts explicit casts)', async () => {
    expect(
      await problems(
        yaml([
          ...tables,
          'routines:',
          '  f: { signature: "f(bigint)", distributed_by: $1, colocation: wh }',
          '  g: { signature: "g(smallint)", distributed_by: $1, colocation: wh }',
        ]),
      ),
    ).toEqual([
      "warning: m.yaml:7:48: routines.f.distributed_by: distribution argument $1 is bigint, not the group's distribution column type integer: Citus casts it explicitly to pick the shard (a value the cast refuses fails the call), and refuses to distribute the routine where no cast exists",
    ]);
  });

  it('needs a hash-distributed group to colocate with', async () => {
    expect(
      await problems(
        yaml([
          ...tables,
          'routines:',
          '  f: { signature: "f(integer)", distributed_by: $1, colocate_with: item }',
          '  g: { signature: "g(integer)", distributed_by: $1 }',
        ]),
      ),
    ).toEqual([
      'error: m.yaml:7:68: routines.f.colocate_with: colocate_with "item" is a reference table; a distributed routine needs a hash-distributed table',
      'error: m.yaml:8:49: routines.g.distributed_by: distributed_by needs colocation or colocate_with: a hash-distributed group to colocate with',
    ]);
  });

  it('reports routine files that do not parse, hold two statements or are not CREATE FUNCTION/PROCEDURE', async () => {
    expect(
      await problems(
        yaml([
          ...tables,
          'routines:',
          '  a: { file: a.sql }',
          '  b: { file: b.sql }',
          '  c: { file: c.sql }',
          '  d: { file: ../d.sql }',
          '  e: { file: e.sql }',
        ]),
        {
          'a.sql': 'CREATE FUNCTION a() RETURNS int\nLANGUAGE sql AS $$ SELECT 1 $$ BOGUS;',
          'b.sql': 'CREATE FUNCTION b() RETURNS int LANGUAGE sql AS $$ SELECT 1 $$;\nDROP TABLE warehouse;',
          'c.sql': 'SELECT 1;',
        },
      ),
    ).toEqual([
      'error: m.yaml:7:14: routines.a.file: a.sql:2:32: syntax error at or near "BOGUS"',
      'error: m.yaml:8:14: routines.b.file: b.sql:2:1: holds 2 statements; expected exactly one CREATE FUNCTION or CREATE PROCEDURE',
      'error: m.yaml:9:14: routines.c.file: c.sql:1:1: is a SelectStmt; expected CREATE FUNCTION or CREATE PROCEDURE',
      'error: m.yaml:10:14: routines.d.file: file "../d.sql" is outside the project directory',
      'error: m.yaml:11:14: routines.e.file: file "e.sql" does not exist',
    ]);
  });

  it('refuses a file that creates another routine than the key names', async () => {
    expect(
      await problems(yaml([...tables, 'routines:', '  neword: { file: n.sql }']), {
        'n.sql': 'CREATE FUNCTION app.other() RETURNS int LANGUAGE sql AS $$ SELECT 1 $$;',
      }),
    ).toEqual([
      'error: m.yaml:7:19: routines.neword.file: the file creates function app.other, but the manifest key names public.neword',
    ]);
  });

  it('warns about an inlinable SQL function (never delegated)', async () => {
    expect(
      await problems(yaml([...tables, 'routines:', '  f: { file: f.sql, distributed_by: $1, colocation: wh }']), {
        'f.sql': 'CREATE FUNCTION f(w integer) RETURNS integer LANGUAGE sql AS $$ SELECT w + 1 $$;',
      }),
    ).toEqual([
      'warning: m.yaml:7:14: routines.f.file: public.f is an inlinable SQL function: the planner inlines it into the calling query, so Citus never delegates the call (make it plpgsql, or SECURITY DEFINER, or VOLATILE set-returning)',
    ]);
  });

  it("warns about an int sequence default on a table in a delegated routine's group", async () => {
    expect(
      await problems(
        yaml([
          'version: 1',
          'colocation: { wh: {} }',
          'tables:',
          '  warehouse: { distributed_by: w_id, colocation: wh, columns: { w_id: integer } }',
          '  hist: { distributed_by: w_id, colocation: wh, columns: { w_id: integer, id: serial } }',
          'routines:',
          '  f: { signature: "f(integer)", distributed_by: $1, colocation: wh }',
        ]),
      ),
    ).toEqual([
      'warning: m.yaml:7:49: routines.f.distributed_by: hist.id takes an integer sequence default, but public.f runs on the workers, which cannot use it ("nextval(sequence) calls in worker nodes are not supported for column defaults of type int or smallint"): use bigint',
    ]);
  });

  it('refuses file and signature together, and colocation without distributed_by', async () => {
    expect(
      await problems(
        yaml([
          ...tables,
          'routines:',
          '  f: { file: f.sql, signature: "f()" }',
          '  g: { signature: "g()", colocation: wh }',
        ]),
      ),
    ).toEqual([
      "error: m.yaml:7:32: routines.f.signature: give either file or signature, not both: a file's signature is read from it",
      'error: m.yaml:8:38: routines.g.colocation: colocation needs distributed_by: a routine without a distribution argument is created on every node and never delegated',
    ]);
  });
});

describe('bench', () => {
  it('needs as many params as placeholders, counted by the parser', async () => {
    expect(
      await problems(
        yaml([
          'version: 1',
          'bench:',
          '  workloads:',
          '    a: { sql: "SELECT f($1, \'$2\')", params: [ { int: [1, 2] } ] }',
          '    b: { sql: "CALL p($1, $2)", params: [ { const: 1 } ] }',
          '    c: { sql: "SELECT f($2)", params: [ { const: 1 }, { const: 2 } ] }',
        ]),
      ),
    ).toEqual([
      'error: m.yaml:5:41: bench.workloads.b.params: sql has 2 placeholders but params has 1 entry',
      'error: m.yaml:6:15: bench.workloads.c.sql: sql uses $2 but not $1',
    ]);
  });

  it('needs positive weights and non-empty ranges', async () => {
    expect(
      await problems(yaml(['version: 1', 'bench:', '  workloads:', '    d: { sql: "SELECT 1", weight: 0 }'])),
    ).toEqual(['error: m.yaml:4:35: bench.workloads.d.weight: weight must be positive']);
    expect(
      await problems(
        yaml([
          'version: 1',
          'bench:',
          '  duration: 10s',
          '  transactions: 5',
          '  workloads:',
          '    d: { sql: "SELECT $1", params: [ { int: [5, 1] } ] }',
        ]),
      ),
    ).toEqual([
      'error: m.yaml:4:17: bench.transactions: give duration or transactions, not both',
      'error: m.yaml:6:45: bench.workloads.d.params[0].int: int range [5, 1] is empty: the low bound is above the high bound',
    ]);
  });
});

describe('more rules', () => {
  it("checks sequence bounds and a serial sequence's type", async () => {
    expect(
      await problems(
        yaml([
          'version: 1',
          'tables:',
          '  t: { columns: { id: serial } }',
          'sequences:',
          '  t_id_seq: { type: bigint }',
          '  s: { min: 10, max: 1, start: 50 }',
        ]),
      ),
    ).toEqual([
      'error: m.yaml:5:21: sequences.t_id_seq.type: type bigint differs from the type of the serial column t.id that owns it (integer)',
      'error: m.yaml:6:13: sequences.s.min: min 10 is greater than max 1',
      'error: m.yaml:6:32: sequences.s.start: start 50 is outside min..max',
    ]);
  });

  it('makes serial columns NOT NULL, as PostgreSQL does, and refuses not_null: false on one', async () => {
    const m = await load(
      yaml(['version: 1', 'tables:', '  t: { local: true, columns: { id: bigserial, n: integer } }']),
    );
    expect(m.desired.tables['public.t']!.columns!.map((c) => [c.name, c.notNull])).toEqual([
      ['id', true],
      ['n', false],
    ]);
    expect(
      await problems(
        yaml(['version: 1', 'tables:', '  t: { local: true, columns: { id: { type: serial, not_null: false } } }']),
      ),
    ).toEqual([
      'error: m.yaml:3:62: tables.t.columns.id.not_null: a serial column is always NOT NULL in PostgreSQL: remove not_null: false',
    ]);
  });

  it('refuses one table declared twice under different keys', async () => {
    expect(
      await problems(yaml(['version: 1', 'tables:', '  orders: { local: true }', '  public.orders: { local: true }'])),
    ).toEqual([
      'error: m.yaml:4:3: tables["public.orders"]: declares table public.orders a second time (first as "orders")',
    ]);
  });

  it('checks foreign-key arity and that the target is a key', async () => {
    expect(
      await problems(
        yaml([
          'version: 1',
          'tables:',
          '  r: { reference: true, columns: { a: int, b: int }, primary_key: [a] }',
          '  s:',
          '    reference: true',
          '    columns: { x: int, y: int }',
          '    foreign_keys: [ { columns: [x, y], references: r, ref_columns: [a] }, { columns: [x], references: r, ref_columns: [b] } ]',
        ]),
      ),
    ).toEqual([
      'error: m.yaml:7:68: tables.s.foreign_keys[0].ref_columns: columns has 2 columns but ref_columns has 1',
      'error: m.yaml:7:119: tables.s.foreign_keys[1].ref_columns: ref_columns (b) are not the primary key or a unique constraint of public.r',
    ]);
  });

  it('refuses an OUT argument as the distribution argument, and warns about force_delegation on a procedure', async () => {
    const files = {
      'f.sql': 'CREATE FUNCTION f(w integer, OUT n integer) LANGUAGE plpgsql AS $$ BEGIN n := w; END $$;',
      'p.sql': 'CREATE PROCEDURE p(w integer) LANGUAGE plpgsql AS $$ BEGIN NULL; END $$;',
    };
    expect(
      await problems(
        yaml([
          'version: 1',
          'colocation: { g: {} }',
          'tables:',
          '  t: { distributed_by: w, colocation: g, columns: { w: integer } }',
          'routines:',
          '  f: { file: f.sql, distributed_by: n, colocation: g }',
          '  p: { file: p.sql, distributed_by: w, colocation: g, force_delegation: true }',
        ]),
        files,
      ),
    ).toEqual([
      'error: m.yaml:6:37: routines.f.distributed_by: distributed_by "n" is an OUT argument; the distribution argument must be passed in the call',
      'warning: m.yaml:7:73: routines.p.force_delegation: force_delegation has no effect on a procedure: Citus never delegates a CALL inside a transaction block',
    ]);
  });

  it('refuses a primary key column that is not a column', async () => {
    expect(
      await problems(yaml(['version: 1', 'tables:', '  t: { columns: { a: int }, primary_key: [a, b] }'])),
    ).toEqual(['error: m.yaml:3:46: tables.t.primary_key[1]: column "b" is not a column of this table']);
  });
});

describe('renamed_from', () => {
  it('a column renamed from one the table declares too, an index renamed without its new name, a table renamed from a declared one', async () => {
    expect(
      await problems(
        yaml([
          'version: 1',
          'tables:',
          '  t:',
          '    renamed_from: u',
          '    columns: { a: text, b: { type: text, renamed_from: a } }',
          '    indexes: [{ columns: [a], renamed_from: t_a }]',
          '  u: { columns: { x: text } }',
        ]),
      ),
    ).toEqual([
      'error: m.yaml:4:19: tables.t.renamed_from: renamed_from: u names a table this manifest declares too: rename one or the other, not both',
      'error: m.yaml:5:56: tables.t.columns.b.renamed_from: renamed_from: a names a column this table declares too: a column is renamed into a free name only',
      "error: m.yaml:6:45: tables.t.indexes[0].renamed_from: renamed_from needs the index's new name: name: <new name>",
    ]);
  });
});

describe("a partition's storage parameters", () => {
  it('a columnar partition takes none', async () => {
    expect(
      await problems(
        yaml([
          'version: 1',
          'tables:',
          '  e:',
          '    columns: { id: bigint, ts: date }',
          '    partition_by: range (ts)',
          '    partitions:',
          '      e_1: { from: 2024-01-01, to: 2025-01-01, access_method: columnar, storage_parameters: { fillfactor: 70 } }',
          '      e_2: { from: 2025-01-01, to: 2026-01-01, storage_parameters: { fillfactor: 70 } }',
        ]),
      ),
    ).toEqual([
      expect.stringMatching(
        /^error: m\.yaml:7:\d+: tables\.e\.partitions\.e_1\.storage_parameters: a columnar partition takes no storage parameters/,
      ),
    ]);
  });

  it('a foreign partition takes no options of a table with rows, and its table no unique key', async () => {
    expect(
      await problems(
        yaml([
          'version: 1',
          'tables:',
          '  e:',
          '    columns: { id: bigint, ts: date }',
          '    primary_key: [id, ts]',
          '    partition_by: range (ts)',
          '    partitions:',
          '      e_1: { from: 2024-01-01, to: 2025-01-01, access_method: columnar, foreign: { server: files } }',
        ]),
      ),
    ).toEqual([
      expect.stringMatching(
        /tables\.e\.partitions\.e_1\.foreign: a foreign partition holds no rows here: it takes no access_method/,
      ),
      expect.stringMatching(
        /tables\.e\.partitions\.e_1\.foreign: PostgreSQL makes no primary key or unique constraint/,
      ),
    ]);
  });

  it('columnar_options need a columnar partition', async () => {
    expect(
      await problems(
        yaml([
          'version: 1',
          'tables:',
          '  e:',
          '    columns: { id: bigint, ts: date }',
          '    partition_by: range (ts)',
          '    partitions:',
          '      e_1: { from: 2024-01-01, to: 2025-01-01, access_method: columnar, columnar_options: { compression: lz4 } }',
          '      e_2: { from: 2025-01-01, to: 2026-01-01, columnar_options: { compression: lz4 } }',
        ]),
      ),
    ).toEqual([
      expect.stringMatching(
        /^error: m\.yaml:8:\d+: tables\.e\.partitions\.e_2\.columnar_options: columnar_options need access_method: columnar/,
      ),
    ]);
  });
});

describe('mistakes PostgreSQL would refuse only at apply', () => {
  it('a type one edit from a built-in one, a YAML-quoted default, a near-miss group, table or column: each with did you mean', async () => {
    expect(
      await problems(
        yaml([
          'version: 1',
          'colocation: { tenants: { shard_count: 4 } }',
          'tables:',
          '  company: { columns: { id: bigint }, primary_key: [id] }',
          '  t:',
          '    distributed_by: tenantid',
          '    colocation: tenant',
          '    columns:',
          '      tenant_id: bigint',
          '      v: txet',
          "      state: { type: text, default: 'active' }",
          '      c: { type: citext }',
          '      own: { type: public.txet }',
          '    foreign_keys: [{ columns: [tenant_id], references: compnay, ref_columns: [id] }]',
        ]),
      ),
    ).toEqual([
      'warning: m.yaml:2:24: colocation.tenants: colocation group "tenants" has no member tables',
      'error: m.yaml:6:21: tables.t.distributed_by: distribution column "tenantid" is not a column of this table; did you mean "tenant_id"?',
      'error: m.yaml:7:17: tables.t.colocation: colocation group "tenant" is not declared under colocation; did you mean "tenants"?',
      'error: m.yaml:10:10: tables.t.columns.v: type "txet" is not a built-in type and the manifest declares none of that name: did you mean "text"? (a type of your own created elsewhere: write it with its schema, e.g. public.txet)',
      `error: m.yaml:11:37: tables.t.columns.state.default: default "active" names "active" as a column, which a default cannot; for the string, put SQL quotes inside the YAML ones: default: "'active'"`,
      'error: m.yaml:14:56: tables.t.foreign_keys[0].references: references "compnay", which the manifest does not declare; did you mean "company"?',
    ]);
  });
});
