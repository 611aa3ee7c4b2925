// A partition's clone of its table's trigger in another state (ALTER TABLE partition DISABLE
// TRIGGER t, as pg_dump writes it): an object of its own, `trigger state`, after the table's
// trigger; a trigger the files make keeps its ENABLE / DISABLE as part of itself.
import { beforeAll, describe, expect, it } from 'vitest';
import { objectsFromSql } from '../../src/objects/from-sql.js';
import { needsOf } from '../../src/plan/steps/step-names.js';
import type { ClusterModel } from '../../src/model/types.js';
import { loadParser } from '../../src/sql/pg-parse.js';

beforeAll(async () => {
  await loadParser();
});

describe('a trigger state', () => {
  const read = () =>
    objectsFromSql(
      [
        {
          file: 't.sql',
          text: `CREATE TRIGGER aft_row AFTER INSERT ON parted FOR EACH ROW EXECUTE FUNCTION nothing();
ALTER TABLE parted_1 DISABLE TRIGGER aft_row;
CREATE TRIGGER own AFTER INSERT ON t FOR EACH ROW EXECUTE FUNCTION nothing();
ALTER TABLE t DISABLE TRIGGER own;
`,
        },
      ],
      'public',
      () => '',
    );

  it("is a partition clone's own; a declared trigger's state is part of it", () => {
    const { objects, problems } = read();
    expect(problems).toEqual([]);
    expect(Object.keys(objects).sort()).toEqual([
      'trigger public.parted.aft_row',
      'trigger public.t.own',
      'trigger state public.parted_1.aft_row',
    ]);
    expect(objects['trigger public.t.own']!.create).toHaveLength(2);
  });

  it("comes after the table's trigger of its name", () => {
    const { objects } = read();
    const needs = needsOf(
      {
        kind: 'create_object',
        object: 'trigger state public.parted_1.aft_row',
        objectKind: 'trigger state',
        statements: ['ALTER TABLE parted_1 DISABLE TRIGGER aft_row'],
        recreate: false,
      },
      { objects } as unknown as ClusterModel,
    );
    expect(needs.hard).toContain('trigger public.parted.aft_row');
    expect(needs.hard).not.toContain('trigger public.t.own');
  });
});
