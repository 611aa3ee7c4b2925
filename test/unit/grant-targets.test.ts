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

  it("a REVOKE from a role that holds nothing must name the owner: the catalog's, or the applying role for the rest", () => {
    const { objects } = objectsFromSql(
      [
        {
          file: 'grants.sql',
          text: 'REVOKE DELETE ON TABLE t FROM app_owner;\nREVOKE TRUNCATE ON TABLE u FROM deployer;\nREVOKE EXECUTE ON FUNCTION f(integer) FROM app_ownr;\n',
        },
      ],
      'public',
      argTypes,
    );
    const actual = model({
      roles: ['app_owner', 'deployer', 'postgres'],
      reader: 'postgres',
      owners: { 'relation public.t': 'app_owner' },
      routines: { 'public.f(integer)': f('integer') },
    });
    expect(grantTargetProblems(model({ objects }), actual).map((p) => `${p.where}: ${p.code}: ${p.message}`)).toEqual([
      'grants.sql:2:1: revoke_from_non_owner: revokes from deployer, which holds nothing on relation public.u and does not own it (postgres does, the role that applies the plan): the REVOKE would do nothing; revoke from the owner what it should not hold, or drop the statement',
      'grants.sql:3:1: unknown_role: revokes from role app_ownr, which the server does not have; did you mean "app_owner"?: create the role first (roles are not managed here), or correct the name',
    ]);
    // Applied by deployer, who owns u, and f owned by app_ownr: fine.
    expect(
      grantTargetProblems(model({ objects }), {
        ...actual,
        reader: 'deployer',
        roles: [...actual.roles!, 'app_ownr'],
        owners: { ...actual.owners, 'routine public.f(integer)': 'app_ownr' },
      }),
    ).toEqual([]);
  });
});
