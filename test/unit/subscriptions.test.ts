// Subscriptions in sql: files (objects/subscription.ts): the connection string is a `${env:NAME}`
// placeholder, compared by digest; what PostgreSQL keeps is compared, what only CREATE reads is
// not; a change is made in place with ALTER SUBSCRIPTION, in an order PostgreSQL accepts.
import { beforeAll, describe, expect, it } from 'vitest';
import { objectsFromSql } from '../../src/objects/from-sql.js';
import { loadParser } from '../../src/sql/pg-parse.js';
import { secretDigest } from '../../src/objects/user-mapping.js';
import {
  outsideTransaction,
  subscriptionChange,
  subscriptionState,
  subscriptionWithPlaceholder,
} from '../../src/objects/subscription.js';
import { withSecretDigests } from '../../src/manifest/secrets.js';
import type { ClusterModel, SqlObject } from '../../src/model/types.js';
import { sentSql } from '../../src/apply/secrets.js';
import type { PlanStep } from '../../src/plan/plan.js';
import { sameObject } from '../../src/plan/same-object.js';
import { publisherStep, withoutSubscriptions } from '../../src/apply/prove-subscriptions.js';
import { subscriptionAlter } from '../../src/plan/diff/subscription.js';
import type { LiveState } from '../../src/model/live-state.js';

beforeAll(async () => {
  await loadParser();
});

const read = (text: string) => objectsFromSql([{ file: 'm.sql', text }], 'app', () => '');
const CONN = 'host=pub dbname=shop user=rep password=hunter2';
const digest = `'<secret sha256:${secretDigest(CONN)}>'`;

/** The catalog's statement (catalog-subscriptions.ts), every kept option written out. */
const catalog = (options: Partial<Record<string, string>> = {}, publications = 'orders', name = 'sub'): SqlObject => {
  const o = {
    enabled: 'true',
    slot_name: `'${name}'`,
    binary: 'false',
    streaming: 'off',
    synchronous_commit: "'off'",
    two_phase: 'false',
    disable_on_error: 'false',
    ...options,
  };
  return {
    id: `subscription ${name}`,
    kind: 'subscription',
    name,
    create: [
      `CREATE SUBSCRIPTION ${name} CONNECTION ${digest} PUBLICATION ${publications} WITH (${Object.entries(o)
        .map(([k, v]) => `${k} = ${v}`)
        .join(', ')})`,
    ],
    provides: [],
    deps: [],
  };
};
const declared = (create: string, value: string | null = CONN): SqlObject => ({
  ...catalog(),
  create: [create],
  secrets: { PUB: value === null ? null : secretDigest(value) },
});

describe('a subscription in a sql: file', () => {
  it('is named by its name; its connection string must be a placeholder, and the refusal does not repeat it', () => {
    const { objects, problems } = read(`CREATE SUBSCRIPTION sub CONNECTION '\${env:PUB}' PUBLICATION orders;
CREATE SUBSCRIPTION bad CONNECTION 'host=x password=hunter2' PUBLICATION orders;
CREATE SUBSCRIPTION c CONNECTION '\${env:PUB}' PUBLICATION orders WITH (citus_use_authinfo = true);
CREATE SUBSCRIPTION d CONNECTION '\${env:PUB}' PUBLICATION orders WITH (binary = maybe);
`);
    expect(Object.keys(objects)).toEqual(['subscription sub']);
    expect(problems.map((p) => p.where)).toEqual(['m.sql:2:1', 'm.sql:3:1', 'm.sql:4:1']);
    expect(problems[0]!.message).toContain("CONNECTION '${env:NAME}'");
    expect(problems[0]!.message).not.toContain('hunter2');
    expect(problems[1]!.message).toContain('citus_use_authinfo');
    expect(problems[2]!.message).toContain('true or false');
  });

  it('reads what PostgreSQL keeps, with its defaults (connect = false: not enabled, no slot made)', () => {
    expect(subscriptionState(`CREATE SUBSCRIPTION "S" CONNECTION '\${env:PUB}' PUBLICATION a, b`)).toEqual({
      name: '"S"',
      connection: '${env:PUB}',
      publications: ['a', 'b'],
      enabled: true,
      slotName: 'S',
      binary: false,
      streaming: false,
      synchronousCommit: 'off',
      twoPhase: false,
      disableOnError: false,
    });
    const off = subscriptionState(
      `CREATE SUBSCRIPTION s CONNECTION '\${env:PUB}' PUBLICATION a WITH (connect = false, slot_name = NONE, binary)`,
    );
    expect(off).toMatchObject({ enabled: false, slotName: null, binary: true });
  });
});

describe('comparing with the catalog', () => {
  const plain = `CREATE SUBSCRIPTION sub CONNECTION '\${env:PUB}' PUBLICATION orders WITH (copy_data = false)`;

  it('the same by digest, whatever CREATE alone reads; another connection string is changed in place', () => {
    expect(sameObject(declared(plain), catalog(), undefined)).toBe(true);
    expect(subscriptionChange(declared(plain, 'host=other'), catalog())).toEqual([
      `ALTER SUBSCRIPTION sub CONNECTION '\${env:PUB}'`,
    ]);
    // Unset: not compared (the warning says so), and nothing planned for it.
    expect(subscriptionChange(declared(plain, null), catalog())).toEqual([]);
  });

  it('changes options, publications and enabled in place, in an order PostgreSQL accepts', () => {
    const off = `CREATE SUBSCRIPTION sub CONNECTION '\${env:PUB}' PUBLICATION orders, items WITH (enabled = false, slot_name = NONE, streaming = on)`;
    expect(subscriptionChange(declared(off), catalog())).toEqual([
      'ALTER SUBSCRIPTION sub DISABLE',
      'ALTER SUBSCRIPTION sub SET (slot_name = NONE, streaming = on)',
      'ALTER SUBSCRIPTION sub SET PUBLICATION orders, items WITH (refresh = false)',
    ]);
    const back = catalog({ enabled: 'false', slot_name: 'NONE' }, 'orders, items');
    expect(subscriptionChange(declared(plain), back)).toEqual([
      "ALTER SUBSCRIPTION sub SET (slot_name = 'sub')",
      'ALTER SUBSCRIPTION sub ENABLE',
      'ALTER SUBSCRIPTION sub SET PUBLICATION orders',
    ]);
    // The same publications in another order: the same.
    expect(
      subscriptionChange(
        declared(`CREATE SUBSCRIPTION sub CONNECTION '\${env:PUB}' PUBLICATION items, orders`),
        catalog({}, 'orders, items'),
      ),
    ).toEqual([]);
  });

  it('two_phase cannot change in place: a problem, never made again', () => {
    const change = subscriptionChange(
      declared(`CREATE SUBSCRIPTION sub CONNECTION '\${env:PUB}' PUBLICATION orders WITH (two_phase = true)`),
      catalog(),
    );
    expect(change).toEqual({ problem: expect.stringContaining('two_phase') });
  });

  it('introspect writes the connection string as a placeholder named after the subscription', () => {
    const { text, names } = subscriptionWithPlaceholder(catalog({}, 'orders', '"Shop-Feed"'));
    expect(names).toEqual(['CM_SUB_SHOP_FEED_CONNECTION']);
    expect(text).toContain(`CONNECTION '\${env:CM_SUB_SHOP_FEED_CONNECTION}' PUBLICATION`);
    expect(text).not.toContain('sha256');
  });
});

describe('in the transaction or after COMMIT', () => {
  it('after COMMIT only what PostgreSQL refuses in a transaction block: what makes or drops a slot, or refreshes', () => {
    const c = (w: string) => `CREATE SUBSCRIPTION s CONNECTION '\${env:P}' PUBLICATION p${w}`;
    expect(outsideTransaction(c(''))).toBe(true);
    expect(outsideTransaction(c(' WITH (create_slot = false)'))).toBe(false);
    expect(outsideTransaction(c(' WITH (connect = false)'))).toBe(false);
    expect(outsideTransaction('DROP SUBSCRIPTION s')).toBe(true);
    expect(outsideTransaction('ALTER SUBSCRIPTION s SET PUBLICATION p')).toBe(true);
    expect(outsideTransaction('ALTER SUBSCRIPTION s SET PUBLICATION p WITH (refresh = false)')).toBe(false);
    expect(outsideTransaction('ALTER SUBSCRIPTION s REFRESH PUBLICATION')).toBe(true);
    for (const x of ['ENABLE', 'DISABLE', "CONNECTION 'x'", 'SET (binary = true)'])
      expect(outsideTransaction(`ALTER SUBSCRIPTION s ${x}`)).toBe(false);
  });

  it('a change is a step in the transaction, then one after COMMIT for a refreshing SET PUBLICATION', () => {
    const d = declared(
      `CREATE SUBSCRIPTION sub CONNECTION '\${env:PUB}' PUBLICATION orders, items WITH (binary = true)`,
    );
    const steps = subscriptionAlter(d, catalog());
    expect(steps).toEqual([
      expect.objectContaining({ kind: 'alter_object', statements: ['ALTER SUBSCRIPTION sub SET (binary = true)'] }),
      expect.objectContaining({ statements: ['ALTER SUBSCRIPTION sub SET PUBLICATION orders, items'] }),
    ]);
  });
});

describe('the environment', () => {
  const model = (objects: Record<string, SqlObject>): ClusterModel =>
    ({ objects, tables: {}, routines: {}, sequences: {} }) as unknown as ClusterModel;

  it('gives the digest of the connection string, or a warning at the statement when unset', () => {
    const { objects } = read(`CREATE SUBSCRIPTION sub CONNECTION '\${env:PUB}' PUBLICATION orders;\n`);
    const set = withSecretDigests(model(objects), { PUB: CONN });
    expect(set.desired.objects['subscription sub']!.secrets).toEqual({ PUB: secretDigest(CONN) });
    expect(JSON.stringify(set.desired)).not.toContain('hunter2');
    const unset = withSecretDigests(model(objects), {});
    expect(unset.warnings).toEqual([expect.objectContaining({ code: 'secret_unset', file: 'm.sql', line: 1 })]);
  });

  it('apply sends the value in the statements of subscription steps, create or change', () => {
    const step = (kind: string): PlanStep =>
      ({
        index: 1,
        summary: 's',
        hazards: [],
        sql: [],
        object: 'subscription sub',
        step: { kind, objectKind: 'subscription' },
      }) as unknown as PlanStep;
    const alter = `ALTER SUBSCRIPTION sub CONNECTION '\${env:PUB}'`;
    expect(sentSql(step('alter_object'), alter, { PUB: CONN })).toBe(`ALTER SUBSCRIPTION sub CONNECTION '${CONN}'`);
    expect(sentSql(step('create_object'), alter, { PUB: CONN })).toContain('hunter2');
    expect(publisherStep(step('create_object'))).toBe(true);
  });
});

describe('--prove', () => {
  it('builds its copy without subscriptions and their comments', () => {
    const comment: SqlObject = {
      id: 'comment on subscription sub',
      kind: 'comment',
      name: 'on subscription sub',
      parent: 'subscription sub',
      create: ["COMMENT ON SUBSCRIPTION sub IS 'x'"],
      provides: [],
      deps: [],
    };
    const live = { model: model({ 'subscription sub': catalog(), [comment.id]: comment }) } as unknown as LiveState;
    expect(withoutSubscriptions(live).model.objects).toEqual({});
  });
  const model = (objects: Record<string, SqlObject>): ClusterModel =>
    ({ objects, tables: {}, routines: {}, sequences: {} }) as unknown as ClusterModel;
});
