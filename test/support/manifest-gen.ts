// fast-check generators of valid manifests (as JSON documents) and of edits that keep them valid.
import fc from 'fast-check';

/** PostgreSQL identifiers: any unicode, quotes, spaces, reserved words; never NUL, never > 63 bytes. */
export const identifier = (): fc.Arbitrary<string> =>
  fc
    .oneof(
      { weight: 3, arbitrary: fc.string({ minLength: 1, maxLength: 12, unit: 'grapheme' }) },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          'select',
          'user',
          'Order Lines',
          "'); DROP TABLE x; --",
          'a"b',
          'a.b',
          'MixedCase',
          'größe',
          '$1',
          'table',
        ),
      },
    )
    .filter((s) => !s.includes('\u0000') && Buffer.byteLength(s) <= 63 && s.trim().length > 0);

/** A manifest key that names schema.name exactly, whatever the characters. */
export const qualifiedKey = (schema: string, name: string): string =>
  `"${schema.replace(/"/g, '""')}"."${name.replace(/"/g, '""')}"`;

const TYPES = [
  'integer',
  'bigint',
  'text',
  'varchar(20)',
  'numeric(12,2)',
  'boolean',
  'timestamptz',
  'date',
  'jsonb',
] as const;
const DEFAULTS: Readonly<Record<string, readonly string[]>> = {
  integer: ['0', '42'],
  bigint: ['0', '-1'],
  text: ["'x'", "''"],
  'varchar(20)': ["'v'"],
  'numeric(12,2)': ['0', '1.5'],
  boolean: ['true', 'false'],
  timestamptz: ['now()'],
  date: ['CURRENT_DATE'],
  jsonb: ["'{}'"],
};

export interface GenColumn {
  type: string;
  not_null?: boolean;
  default?: string;
}
export interface GenTable {
  key: string;
  kind: 'local' | 'reference' | 'hash' | 'single';
  group?: string;
  columns: Record<string, GenColumn>;
  pk?: string[];
  index?: string[];
}
export interface GenManifest {
  tables: GenTable[];
  groups: Record<string, number>;
  sequences: Record<string, number>;
  routines: Record<string, string>;
}

const column = (): fc.Arbitrary<GenColumn> =>
  fc.constantFrom(...TYPES).chain((type) =>
    fc.record({
      type: fc.constant(type),
      not_null: fc.boolean(),
      default: fc.option(fc.constantFrom(...DEFAULTS[type]!), { nil: undefined }),
    }),
  );

/** Random manifests; `citus` adds reference, hash-distributed (in 1–2 groups) and single-shard tables. */
export function manifestArb(citus: boolean): fc.Arbitrary<GenManifest> {
  const table = (i: number): fc.Arbitrary<GenTable> =>
    fc
      .record({
        kind: citus ? fc.constantFrom('local', 'reference', 'hash', 'hash', 'single') : fc.constant('local'),
        group: fc.constantFrom('g1', 'g2'),
        cols: fc
          .uniqueArray(fc.constantFrom('a', 'b', 'c', 'd', 'e'), { minLength: 0, maxLength: 3 })
          .chain((names) =>
            fc.tuple(...names.map(() => column())).map((cs) => Object.fromEntries(names.map((n, k) => [n, cs[k]!]))),
          ),
        withPk: fc.boolean(),
        withIndex: fc.boolean(),
      })
      .map(({ kind, group, cols, withPk, withIndex }) => {
        const columns: Record<string, GenColumn> = { id: { type: 'bigint', not_null: true }, ...cols };
        const t: GenTable = {
          key: `t${i}`,
          kind: kind as GenTable['kind'],
          columns,
          ...(kind === 'hash' ? { group } : {}),
        };
        if (withPk || kind === 'reference') t.pk = ['id'];
        const other = Object.keys(cols).find((c) => !['jsonb'].includes(cols[c]!.type));
        if (withIndex && other) t.index = kind === 'hash' ? ['id', other] : [other];
        return t;
      });
  return fc.record({
    tables: fc.integer({ min: 1, max: 4 }).chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => table(i)))),
    groups: fc.record({ g1: fc.constantFrom(2, 4), g2: fc.constantFrom(2, 4, 6) }),
    sequences: fc.dictionary(fc.constantFrom('s1', 's2'), fc.integer({ min: 1, max: 50 }), { maxKeys: 2 }),
    routines: fc.dictionary(
      fc.constantFrom('f1', 'f2'),
      fc.integer({ min: 1, max: 9 }).map((k) => `RETURN p + ${k};`),
      { maxKeys: 2 },
    ),
  });
}

/** The manifest document and the routine files it names. */
export function render(m: GenManifest): { manifest: Record<string, unknown>; files: Record<string, string> } {
  const usedGroups = new Set(m.tables.filter((t) => t.kind === 'hash').map((t) => t.group!));
  const files: Record<string, string> = {};
  const routines: Record<string, unknown> = {};
  for (const [name, body] of Object.entries(m.routines)) {
    files[`${name}.sql`] =
      `CREATE FUNCTION ${name}(p bigint) RETURNS bigint LANGUAGE plpgsql AS $$ BEGIN ${body} END $$;\n`;
    const hashTable = m.tables.find((t) => t.kind === 'hash');
    routines[name] = {
      file: `${name}.sql`,
      ...(hashTable ? { distributed_by: 'p', colocate_with: hashTable.key } : {}),
    };
  }
  return {
    manifest: {
      version: 1,
      colocation: Object.fromEntries([...usedGroups].map((g) => [g, { shard_count: m.groups[g] }])),
      tables: Object.fromEntries(
        m.tables.map((t) => [
          t.key,
          {
            ...(t.kind === 'local'
              ? { local: true }
              : t.kind === 'reference'
                ? { reference: true }
                : t.kind === 'single'
                  ? { single_shard: true }
                  : { distributed_by: 'id', colocation: t.group }),
            columns: t.columns,
            ...(t.pk ? { primary_key: t.pk } : {}),
            ...(t.index ? { indexes: [{ columns: t.index }] } : {}),
          },
        ]),
      ),
      sequences: Object.fromEntries(Object.entries(m.sequences).map(([s, cache]) => [s, { type: 'bigint', cache }])),
      routines,
    },
    files,
  };
}

/** An edit that keeps the manifest valid: add or retype a column, change a default, a cache, a body, a shard count, a kind. */
export function editArb(m: GenManifest, citus: boolean): fc.Arbitrary<GenManifest> {
  const clone = (): GenManifest => JSON.parse(JSON.stringify(m)) as GenManifest;
  const edits: fc.Arbitrary<GenManifest>[] = [
    fc.tuple(fc.nat(m.tables.length - 1), column()).map(([i, c]) => {
      const n = clone();
      n.tables[i]!.columns.added = c;
      return n;
    }),
    fc.nat(m.tables.length - 1).map((i) => {
      const n = clone();
      const t = n.tables[i]!;
      const c = Object.entries(t.columns).find(([k, v]) => k !== 'id' && v.type === 'integer');
      if (c) {
        c[1].type = 'bigint';
        delete c[1].default;
      } else t.columns.extra = { type: 'text', default: "'e'" };
      return n;
    }),
    fc.tuple(fc.nat(m.tables.length - 1), fc.constantFrom("'changed'", "''")).map(([i, d]) => {
      const n = clone();
      const t = n.tables[i]!;
      t.columns.note = { type: 'text', default: d };
      return n;
    }),
    fc.integer({ min: 51, max: 500 }).map((cache) => {
      const n = clone();
      n.sequences.s1 = cache;
      return n;
    }),
    fc.integer({ min: 10, max: 19 }).map((k) => {
      const n = clone();
      n.routines.f1 = `RETURN p * ${k};`;
      return n;
    }),
  ];
  if (citus) {
    edits.push(
      fc.constantFrom(2, 4, 6, 8).map((s) => {
        const n = clone();
        n.groups.g1 = s;
        return n;
      }),
    );
    edits.push(
      fc.nat(m.tables.length - 1).map((i) => {
        const n = clone();
        const t = n.tables[i]!;
        if (t.kind === 'hash') t.group = t.group === 'g1' ? 'g2' : 'g1';
        else if (t.kind === 'local') {
          t.kind = 'reference';
          t.pk = ['id'];
        }
        return n;
      }),
    );
  }
  return fc.oneof(...edits);
}
