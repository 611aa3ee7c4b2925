// Grants the live plan knows PostgreSQL would refuse: to a role the server lacks (with the nearest
// one), on a routine signature neither side has (with the declared ones), at the GRANT's file:line.
import { beforeAll, describe, expect, it } from 'vitest';
import type { ClusterModel, Routine } from '../../src/model/types.js';
import { objectsFromSql } from '../../src/objects/from-sql.js';
import { grantTargetProblems } from '../../src/plan/checks/grant-targets.js';
import { loadParser, typeFromNode, type Node } from '../../src/sql/pg-parse.js';

beforeAll(loadParser);

const f = (args: string): Routine => ({
  id: `public.f(${args})`,
  qname: { schema: 'public', name: 'f' },
  argTypes: [args],
});
const model = (more: Partial<ClusterModel>): ClusterModel => ({
  schemas: ['public'],
  objects: {},
  tables: {},
  groups: {},
  sequences: {},
  routines: {},
  ...more,
});
// As the manifest's resolve spells a routine's arguments.
const argTypes = (owa: Node): string =>
  (owa.objargs ?? []).map((t: Node) => typeFromNode(t.TypeName ?? t).sql).join(', ');

describe('grant targets', () => {
  it('an unknown role and an old signature are problems at the GRANT', () => {
    const { objects } = objectsFromSql(
      [
        {
          file: 'grants.sql',
          text: 'GRANT EXECUTE ON FUNCTION f(integer) TO reporting;\nGRANT SELECT ON TABLE t TO reportng, reporting;\n',
        },
      ],
      'public',
      argTypes,
    );
    const out = grantTargetProblems(
      model({ objects, routines: { 'public.f(bigint)': f('bigint') } }),
      model({ roles: ['postgres', 'reporting'] }),
    );
    expect(out.map((p) => `${p.where}: ${p.code}: ${p.message}`)).toEqual([
      'grants.sql:1:1: unknown_routine: names routine public.f(integer), which neither the manifest nor the cluster has: its signature is public.f(bigint); grant on the routine as it is declared',
      'grants.sql:2:1: unknown_role: grants to role reportng, which the server does not have; did you mean "reporting"?: create the role first (roles are not managed here), or correct the name',
    ]);
    // The routine in the cluster (created elsewhere): its grant is fine; roles unread: not checked.
    expect(grantTargetProblems(model({ objects }), model({ routines: { 'public.f(integer)': f('integer') } }))).toEqual(
      [],
    );
  });
});
