// Table inheritance in the manifest: a child's columns as PostgreSQL makes them (its parents'
// first, in order, a merged column in its parent's place, then its own), what the columns it
// inherits have of their own, and the offline plan's CREATE TABLE … INHERITS after its parents.
import { describe, expect, it } from 'vitest';
import { loadManifestText } from '../../src/manifest/load.js';
import { planOffline } from '../../src/plan/from-manifest.js';

const MANIFEST = `version: 1
tables:
  special_item:
    inherits: [item]
    columns: { extra: jsonb }
  item:
    inherits: [base, tagged]
    inherited_columns:
      at: { default: "'2020-01-01'" }
      tags: { not_null: true }
    columns: { name: text, id: integer }
    primary_key: [id]
  base:
    columns: { id: { type: serial }, at: { type: timestamptz, default: now() } }
  tagged:
    columns: { tags: { type: "text[]", default: "'{}'" }, at: timestamptz }
`;

describe('table inheritance in the manifest', () => {
  it("gives a child its parents' columns first, merged in place, with what it has of its own", async () => {
    const m = await loadManifestText(MANIFEST, 'm.yaml', process.cwd());
    const cols = (t: string) =>
      m.desired.tables[`public.${t}`]!.columns!.map(
        (c) =>
          `${c.name} ${c.type.sql}${c.notNull ? ' not null' : ''}${c.default ? ` = ${c.default}` : ''}${c.inherited ? ' (inherited)' : ''}`,
      );
    expect(cols('item')).toEqual([
      "id integer not null = nextval('public.base_id_seq'::regclass)",
      "at timestamp with time zone = '2020-01-01' (inherited)",
      "tags text[] not null = '{}' (inherited)",
      'name text',
    ]);
    expect(cols('special_item')).toEqual([
      "id integer not null = nextval('public.base_id_seq'::regclass) (inherited)",
      "at timestamp with time zone = '2020-01-01' (inherited)",
      "tags text[] not null = '{}' (inherited)",
      'name text (inherited)',
      'extra jsonb',
    ]);
    expect(m.desired.tables['public.special_item']!.inherits).toEqual(['public.item']);
  });

  it('creates a child after its parents, with its own columns and INHERITS', async () => {
    const m = await loadManifestText(MANIFEST, 'm.yaml', process.cwd());
    const sql = planOffline(m).transaction.steps.flatMap((s) => s.sql);
    const creates = sql.filter((s) => s.startsWith('CREATE TABLE'));
    expect(creates.map((s) => s.split(' (')[0])).toEqual([
      'CREATE TABLE public.base',
      'CREATE TABLE public.tagged',
      'CREATE TABLE public.item',
      'CREATE TABLE public.special_item',
    ]);
    expect(creates[2]).toBe(
      "CREATE TABLE public.item (\n    id integer NOT NULL DEFAULT nextval('public.base_id_seq'::regclass),\n    name text,\n    PRIMARY KEY (id)\n) INHERITS (public.base, public.tagged)",
    );
    expect(sql).toContain("ALTER TABLE ONLY public.item ALTER COLUMN at SET DEFAULT '2020-01-01'");
    expect(sql).toContain('ALTER TABLE public.item ALTER COLUMN tags SET NOT NULL');
  });

  it("sets an inherited column's own statistics, storage and options ONLY on the child, after its parent's", async () => {
    const m = await loadManifestText(
      `version: 1
tables:
  par:
    columns: { a: { type: integer, statistics: 200 }, b: { type: text, storage: external } }
  ch:
    inherits: [par]
    inherited_columns:
      a: { statistics: 50, options: { n_distinct: 7 } }
      b: { storage: main }
    columns: { c: integer }
`,
      'm.yaml',
      process.cwd(),
    );
    const sql = planOffline(m).transaction.steps.flatMap((s) => s.sql);
    const at = (x: string): number => sql.indexOf(x);
    expect(at('ALTER TABLE public.par ALTER COLUMN a SET STATISTICS 200')).toBeGreaterThan(-1);
    expect(at('ALTER TABLE ONLY public.ch ALTER COLUMN a SET STATISTICS 50')).toBeGreaterThan(
      at('ALTER TABLE public.par ALTER COLUMN a SET STATISTICS 200'),
    );
    expect(sql).toContain('ALTER TABLE ONLY public.ch ALTER COLUMN a SET (n_distinct = 7)');
    expect(sql).toContain('ALTER TABLE ONLY public.ch ALTER COLUMN b SET STORAGE MAIN');
    // Nothing is set on the child without ONLY (it would reach its own children).
    expect(sql.filter((x) => x.startsWith('ALTER TABLE public.ch'))).toEqual([]);
  });
});

describe('a foreign table that inherits', () => {
  it('from a table the manifest distributes is a plan problem, at its statement', async () => {
    const { mkdtempSync, writeFileSync, mkdirSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const { loadManifest } = await import('../../src/manifest/load.js');
    const dir = mkdtempSync(join(tmpdir(), 'cm-finh-'));
    mkdirSync(join(dir, 'sql'));
    writeFileSync(
      join(dir, 'citus-migrate.yaml'),
      'version: 1\nsql: [sql]\ntables:\n  m: { distributed_by: id, columns: { id: bigint, v: text } }\n',
    );
    writeFileSync(
      join(dir, 'sql', 'f.sql'),
      "CREATE SERVER files FOREIGN DATA WRAPPER file_fdw;\nCREATE FOREIGN TABLE old_m (src text) INHERITS (m) SERVER files OPTIONS (filename '/dev/null');\n",
    );
    const plan = planOffline(await loadManifest(join(dir, 'citus-migrate.yaml')));
    expect(plan.problems).toEqual([
      expect.objectContaining({
        code: 'inheritance_refused',
        object: 'foreign table public.old_m',
        message: expect.stringContaining('sql/f.sql:2:1') as unknown as string,
      }),
    ]);
  });
});
