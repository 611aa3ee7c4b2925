// User mappings in sql: files (objects/user-mapping.ts): a secret option is a `${env:NAME}`
// placeholder, never a value; the plan compares digests; apply sends the value and shows the
// placeholder; psql's script reads it with \getenv; introspect writes placeholders back.
import { beforeAll, describe, expect, it } from 'vitest';
import { objectsFromSql } from '../../src/objects/from-sql.js';
import { loadParser } from '../../src/sql/pg-parse.js';
import {
  sameUserMapping,
  secretDigest,
  substituteSecrets,
  withoutDigests,
  withPlaceholders,
} from '../../src/objects/user-mapping.js';
import { withSecretDigests } from '../../src/manifest/secrets.js';
import type { ClusterModel, SqlObject } from '../../src/model/types.js';
import { sentSql, refuseUnsetSecrets } from '../../src/apply/secrets.js';
import type { PlanDocument, PlanStep } from '../../src/plan/plan.js';
import { planBodySql } from '../../src/format/plan-sql.js';
import { CmError } from '../../src/errors.js';

beforeAll(async () => {
  await loadParser();
});

const read = (text: string) => objectsFromSql([{ file: 'm.sql', text }], 'app', () => '');

const actual = (create: string): SqlObject => ({
  id: 'user mapping for app server s',
  kind: 'user mapping',
  name: 'for app server s',
  create: [create],
  provides: [],
  deps: [],
});
const held = (value: string): string => `'<secret sha256:${secretDigest(value)}>'`;

describe('a user mapping in a sql: file', () => {
  it('is named by role (or PUBLIC) and server, and needs its server', () => {
    const { objects, problems } =
      read(`CREATE USER MAPPING FOR app SERVER s OPTIONS (user 'app', password '\${env:PW}');
CREATE USER MAPPING FOR PUBLIC SERVER "S 2";
`);
    expect(problems).toEqual([]);
    expect(Object.keys(objects).sort()).toEqual([
      'user mapping for PUBLIC server "S 2"',
      'user mapping for app server s',
    ]);
    expect(objects['user mapping for app server s']!.deps).toContain('server s');
  });

  it('refuses a secret written as it is, CURRENT_USER and IF NOT EXISTS, each at its line', () => {
    const { problems } = read(`CREATE USER MAPPING FOR app SERVER s OPTIONS (password 'hunter2');
CREATE USER MAPPING FOR CURRENT_USER SERVER s;
CREATE USER MAPPING IF NOT EXISTS FOR app SERVER t;
`);
    expect(problems.map((p) => p.where)).toEqual(['m.sql:1:1', 'm.sql:2:1', 'm.sql:3:1']);
    expect(problems[0]!.message).toContain("write password '${env:NAME}'");
    expect(problems[0]!.message).not.toContain('hunter2');
    expect(problems[1]!.message).toContain('CURRENT_USER');
    expect(problems[2]!.message).toContain('IF NOT EXISTS');
  });
});

describe('comparing with the catalog, which gives digests of secrets', () => {
  const declared = (secrets: Record<string, string | null>): SqlObject => ({
    ...actual(`CREATE USER MAPPING FOR app SERVER s OPTIONS (user 'app', password '\${env:PW}')`),
    secrets,
  });
  const catalog = actual(`CREATE USER MAPPING FOR app SERVER s OPTIONS ("user" 'app', password ${held('hunter2')})`);

  it('the same when the variable holds the password, not when it holds another', () => {
    expect(sameUserMapping(declared({ PW: secretDigest('hunter2') }), catalog)).toBe(true);
    expect(sameUserMapping(declared({ PW: secretDigest('other') }), catalog)).toBe(false);
  });

  it('an unset variable leaves that option uncompared, not the others', () => {
    expect(sameUserMapping(declared({ PW: null }), catalog)).toBe(true);
    const otherUser = actual(`CREATE USER MAPPING FOR app SERVER s OPTIONS ("user" 'bob', password ${held('x')})`);
    expect(sameUserMapping(declared({ PW: null }), otherUser)).toBe(false);
    const noPassword = actual(`CREATE USER MAPPING FOR app SERVER s OPTIONS ("user" 'app')`);
    expect(sameUserMapping(declared({ PW: null }), noPassword)).toBe(false);
  });

  it('a placeholder in a plain option compares with its value', () => {
    const d: SqlObject = {
      ...actual(`CREATE USER MAPPING FOR app SERVER s OPTIONS (user '\${env:WHO}')`),
      secrets: { WHO: secretDigest('app') },
    };
    expect(sameUserMapping(d, actual(`CREATE USER MAPPING FOR app SERVER s OPTIONS ("user" 'app')`))).toBe(true);
    expect(sameUserMapping(d, actual(`CREATE USER MAPPING FOR app SERVER s OPTIONS ("user" 'eve')`))).toBe(false);
  });

  it('shows a secret as (secret) and introspects it as a placeholder named after server, role and option', () => {
    expect(withoutDigests(catalog.create[0]!)).toBe(
      `CREATE USER MAPPING FOR app SERVER s OPTIONS ("user" 'app', password '(secret)')`,
    );
    expect(withPlaceholders({ ...catalog, name: 'for "App" server "my-srv"' })).toEqual({
      text: `CREATE USER MAPPING FOR app SERVER s OPTIONS ("user" 'app', password '\${env:CM_MY_SRV_APP_PASSWORD}')`,
      names: ['CM_MY_SRV_APP_PASSWORD'],
    });
    // An option whose name needs quotes is a secret too: never written as its digest.
    const quoted = withPlaceholders(actual(`CREATE USER MAPPING FOR app SERVER s OPTIONS ("Pass Word" ${held('x')})`));
    expect(quoted.text).toBe(`CREATE USER MAPPING FOR app SERVER s OPTIONS ("Pass Word" '\${env:CM_S_APP_PASS_WORD}')`);
  });
});

describe('the environment', () => {
  const model = (objects: Record<string, SqlObject>): ClusterModel =>
    ({ objects, tables: {}, routines: {}, sequences: {} }) as unknown as ClusterModel;

  it('gives digests, never values, and a warning at the statement for each unset variable', () => {
    const { objects } = read(
      `CREATE USER MAPPING FOR app SERVER s OPTIONS (password '\${env:PW}', sslpassword '\${env:NOPE}');\n`,
    );
    const { desired, warnings } = withSecretDigests(model(objects), { PW: 'hunter2' });
    const o = desired.objects['user mapping for app server s']!;
    expect(o.secrets).toEqual({ PW: secretDigest('hunter2'), NOPE: null });
    expect(JSON.stringify(desired)).not.toContain('hunter2');
    expect(warnings).toEqual([
      expect.objectContaining({ code: 'secret_unset', file: 'm.sql', line: 1, col: 1, severity: 'warning' }),
    ]);
  });

  const step = (sql: string, objectKind = 'user mapping'): PlanStep =>
    ({
      index: 1,
      summary: 'create user mapping for app server s',
      hazards: [],
      sql: [sql],
      step: { kind: 'create_object', objectKind },
    }) as unknown as PlanStep;
  const create = `CREATE USER MAPPING FOR app SERVER s OPTIONS (password '\${env:PW}')`;

  it("apply sends the value as a literal, in a user mapping's statement only", () => {
    expect(sentSql(step(create), create, { PW: "it's\\x" })).toBe(
      `CREATE USER MAPPING FOR app SERVER s OPTIONS (password E'it''s\\\\x')`,
    );
    const view = "CREATE VIEW v AS SELECT '${env:PW}' AS x";
    expect(sentSql(step(view, 'view'), view, { PW: 'x' })).toBe(view);
    expect(substituteSecrets(create, {})).toBe(create);
  });

  it('apply refuses, before anything runs, a plan that needs a variable not set', () => {
    const plan = { transaction: { steps: [step(create)] }, afterCommit: [] } as unknown as PlanDocument;
    expect(() => refuseUnsetSecrets(plan, { PW: 'x' })).not.toThrow();
    let e: unknown;
    try {
      refuseUnsetSecrets(plan, {});
    } catch (caught) {
      e = caught;
    }
    expect(e).toBeInstanceOf(CmError);
    expect((e as CmError).code).toBe('secret_unset');
    expect((e as CmError).exitCode).toBe(3);
    expect((e as CmError).message).toContain('PW: step 1');
  });

  it("psql's script reads each variable with \\getenv, before the transaction", () => {
    const plan = {
      changes: true,
      transaction: { begin: 'BEGIN', preamble: [], steps: [step(create)], commit: 'COMMIT' },
      afterCommit: [],
      problems: [],
      unmanaged: [],
      notManaged: [],
    } as unknown as PlanDocument;
    const sql = planBodySql(plan);
    expect(sql.indexOf('\\getenv PW PW')).toBeLessThan(sql.indexOf('BEGIN;'));
    expect(sql).toContain("OPTIONS (password :'PW');");
    expect(sql).not.toContain('${env:');
  });
});
