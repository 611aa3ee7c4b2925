// `-- renamed_from: old` above a view or materialized view of a sql: file (plan/diff/view-renames.ts):
// planned as ALTER [MATERIALIZED] VIEW … RENAME while the cluster holds the former name, the rest of
// the diff made against the renamed cluster; what the last apply recorded is carried over only
// when the declaration is unchanged but for its name.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadParser } from '../../src/sql/pg-parse.js';
import { renderSql } from '../../src/plan/steps/step-spec.js';
import { diff } from '../../src/plan/diff/diff.js';
import { keyHash } from '../../src/plan/same-object.js';
import { objectKey } from '../../src/objects/key.js';
import { renamedFromComment } from '../../src/objects/from-sql.js';
import { load, problems } from '../support/manifest.js';

beforeAll(loadParser);

const MANIFEST = 'version: 1\ntables:\n  items: { columns: { id: bigint, name: text } }\nsql: [v.sql]\n';
const BEFORE = [
  'CREATE VIEW public.item_names AS SELECT id, name FROM public.items;',
  'CREATE MATERIALIZED VIEW public.item_stats AS SELECT count(*) AS n FROM public.items;',
  "COMMENT ON VIEW public.item_names IS 'names';",
].join('\n');

async function plan(after: string, recorded = false, before = BEFORE) {
  const actual = (await load(MANIFEST, { 'v.sql': before })).desired;
  const desired = (await load(MANIFEST, { 'v.sql': after })).desired;
  const rec = recorded
    ? Object.fromEntries(
        Object.values(actual.objects).map((o) => {
          // As if PostgreSQL had printed it its own way: only the record says it is the same.
          const key = keyHash(objectKey(o.create, o.searchPath));
          return [o.id, { desired: key, actual: keyHash(objectKey(o.create, 'public')) }];
        }),
      )
    : {};
  return diff(desired, actual, { prune: true, recorded: rec });
}

describe('view renames', () => {
  it('reads the former name as SQL does: folded to lower case unless quoted', () => {
    expect(renamedFromComment('-- names\n-- renamed_from: Item_Names\n')).toBe('item_names');
    expect(renamedFromComment('--renamed_from: "Item ""x"""\n')).toBe('Item "x"');
    expect(renamedFromComment('-- renamed from item_names\n')).toBeUndefined();
  });

  it('a view and a materialized view renamed (and the comment on it following): two renames, nothing dropped or created', async () => {
    const r = await plan(
      [
        '-- renamed_from: item_names',
        'CREATE VIEW public.item_labels AS SELECT id, name FROM public.items;',
        '-- renamed_from: item_stats',
        'CREATE MATERIALIZED VIEW public.item_counts AS SELECT count(*) AS n FROM public.items;',
        "COMMENT ON VIEW public.item_labels IS 'names';",
      ].join('\n'),
    );
    expect(r.problems).toEqual([]);
    expect(r.steps.flatMap((s) => renderSql(s))).toEqual([
      'ALTER VIEW public.item_names RENAME TO item_labels',
      'ALTER MATERIALIZED VIEW public.item_stats RENAME TO item_counts',
    ]);
  });

  it("carries over the last apply's record when only the name changed, not when the query changed too", async () => {
    const same = await plan(
      '-- renamed_from: item_names\nCREATE VIEW public.item_labels AS SELECT id, name FROM public.items;',
      true,
    );
    const step = same.steps.find((s) => s.kind === 'rename_view');
    expect(step).toMatchObject({ kind: 'rename_view', record: expect.any(String) });
    const changed = await plan(
      '-- renamed_from: item_names\nCREATE VIEW public.item_labels AS SELECT id FROM public.items;',
      true,
    );
    expect(changed.steps.find((s) => s.kind === 'rename_view')).not.toHaveProperty('record');
    expect(changed.steps.map((s) => s.kind)).toContain('create_object');
  });

  it('is a problem where both names exist, and above anything but a view', async () => {
    const labels = 'CREATE VIEW public.item_labels AS SELECT id FROM public.items;';
    const both = await plan(`-- renamed_from: item_names\n${labels}`, false, `${BEFORE}\n${labels}`);
    expect(both.problems.map((p) => p.code)).toContain('rename_both_exist');
    expect(
      await problems(MANIFEST, { 'v.sql': '-- renamed_from: items_old\nCREATE INDEX items_name ON items (name);\n' }),
    ).toEqual([
      expect.stringContaining(
        'v.sql:2:1: -- renamed_from: is read above a view or a materialized view only (a index here)',
      ),
    ]);
  });
});
