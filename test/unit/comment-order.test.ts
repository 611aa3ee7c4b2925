// A comment on a constraint, trigger or policy comes after it, wherever the files put it: introspect
// writes comments to sql/comments.sql, which sorts before sql/constraints.sql (found by plan --prove
// on sqldef's DropTableWithConstraintComment: the copy's build failed with 42704).
import { beforeAll, describe, expect, it } from 'vitest';
import { loadParser } from '../../src/sql/pg-parse.js';
import { diff } from '../../src/plan/diff/diff.js';
import { load } from '../support/manifest.js';
import type { ClusterModel } from '../../src/model/types.js';

beforeAll(loadParser);

const EMPTY: ClusterModel = { schemas: ['public'], tables: {}, groups: {}, sequences: {}, routines: {}, objects: {} };

describe('comments after what they are on', () => {
  it('a comment on a CHECK, a trigger and a policy, each written before it', async () => {
    const m = await load('version: 1\ntables:\n  t: { columns: { id: integer } }\nsql: [a.sql, b.sql]\n', {
      'a.sql': [
        "COMMENT ON CONSTRAINT t_check ON t IS 'c';",
        "COMMENT ON TRIGGER t_trg ON t IS 'g';",
        "COMMENT ON POLICY t_pol ON t IS 'p';",
      ].join('\n'),
      'b.sql': [
        'ALTER TABLE t ADD CONSTRAINT t_check CHECK (id > 0);',
        'CREATE FUNCTION f() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$;',
        'CREATE TRIGGER t_trg BEFORE INSERT ON t FOR EACH ROW EXECUTE FUNCTION f();',
        'CREATE POLICY t_pol ON t USING (true);',
      ].join('\n'),
    });
    const objects = diff(m.desired, EMPTY)
      .steps.filter((s) => s.kind === 'create_object')
      .map((s) => (s as { object: string }).object);
    const before = (a: string, b: string): boolean =>
      objects.indexOf(a) >= 0 && objects.indexOf(a) < objects.indexOf(b);
    expect(
      before('check constraint public.t.t_check', 'comment on constraint t_check ON public.t'),
      objects.join('\n'),
    ).toBe(true);
    expect(before('trigger public.t.t_trg', 'comment on trigger t_trg ON public.t'), objects.join('\n')).toBe(true);
    expect(before('policy public.t.t_pol', 'comment on policy t_pol ON public.t'), objects.join('\n')).toBe(true);
  });
});
