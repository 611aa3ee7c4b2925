// A partition's own keys and foreign keys in SQL files (resolve-partition-keys.ts): accepted on a
// declared partition, refused elsewhere, and held to PostgreSQL's and Citus's rules at load time.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadParser } from '../../src/sql/pg-parse.js';
import { load, problems } from '../support/manifest.js';

beforeAll(loadParser);

const manifest = (payment: string): string => `version: 1
colocation: { g: {} }
tables:
  customer: { distributed_by: customer_id, colocation: g, columns: { customer_id: integer }, primary_key: [customer_id] }
  staff: { reference: true, columns: { staff_id: integer }, primary_key: [staff_id] }
  lone: { columns: { id: integer }, primary_key: [id] }
  payment:
    ${payment}
    columns: { payment_id: integer, customer_id: integer, staff_id: integer, d: date }
    partition_by: range (d)
    partitions:
      payment_p1: { from: '2020-01-01', to: '2021-01-01' }
sql: [keys.sql]
`;
const HASH = 'distributed_by: customer_id\n    colocation: g';
const run = (payment: string, sql: string): Promise<string[]> => problems(manifest(payment), { 'keys.sql': sql });

describe("a partition's own keys", () => {
  it('reads them as objects of the partition, with what they reference', async () => {
    const m = await load(manifest(HASH), {
      'keys.sql': [
        'ALTER TABLE ONLY public.payment_p1 ADD CONSTRAINT p1_pkey PRIMARY KEY (customer_id, payment_id);',
        'ALTER TABLE ONLY payment_p1 ADD CONSTRAINT p1_staff_fkey FOREIGN KEY (staff_id) REFERENCES staff;',
      ].join('\n'),
    });
    const o = m.desired.objects;
    expect(o['primary key public.payment_p1.p1_pkey']).toMatchObject({
      parent: 'relation public.payment_p1',
      constraint: { columns: ['customer_id', 'payment_id'] },
    });
    expect(o['foreign key public.payment_p1.p1_staff_fkey']).toMatchObject({
      parent: 'relation public.payment_p1',
      constraint: { columns: ['staff_id'], refTable: 'public.staff' },
      deps: expect.arrayContaining(['relation public.staff', 'relation public.payment_p1']),
    });
  });

  it("refuses a table's key in an SQL file: it is declared on the table", async () => {
    const p = await run(HASH, 'ALTER TABLE public.lone ADD CONSTRAINT lone_u UNIQUE (id);');
    expect(p).toEqual([
      expect.stringMatching(
        /keys\.sql:1:1: unique constraint public\.lone\.lone_u: in an SQL file only a partition's own key/,
      ),
    ]);
  });

  it("refuses a distributed partition's key without the distribution column (Citus would)", async () => {
    const p = await run(HASH, 'ALTER TABLE ONLY payment_p1 ADD CONSTRAINT p1_u UNIQUE (payment_id, d);');
    expect(p.join('\n')).toMatch(
      /unique constraint public\.payment_p1\.p1_u: \(payment_id, d\) does not include the distribution column customer_id/,
    );
    expect(
      await run('reference: true', 'ALTER TABLE ONLY payment_p1 ADD CONSTRAINT p1_u UNIQUE (payment_id, d);'),
    ).toEqual([]);
  });

  it('refuses a foreign key Citus cannot enforce, and a column the table lacks', async () => {
    const fk = (cols: string, ref: string): string =>
      `ALTER TABLE ONLY payment_p1 ADD CONSTRAINT p1_fk FOREIGN KEY (${cols}) REFERENCES ${ref};`;
    expect((await run(HASH, fk('payment_id', 'customer (customer_id)'))).join('\n')).toMatch(
      /foreign key public\.payment_p1\.p1_fk: .*must match distribution column/,
    );
    expect((await run(HASH, fk('staff_id', 'lone (id)'))).join('\n')).toMatch(/local table public\.lone/);
    expect(await run(HASH, fk('customer_id', 'customer (customer_id)'))).toEqual([]);
    expect(await run(HASH, fk('staff_id', 'staff'))).toEqual([]);
    expect((await run(HASH, fk('nope', 'staff'))).join('\n')).toMatch(/column nope is not a column of public\.payment/);
  });

  it("a partition's own column default and NOT NULL: accepted, unless the partition has them from its table anyway", async () => {
    const cols =
      'columns: { payment_id: integer, customer_id: integer, staff_id: { type: integer, not_null: true }, d: { type: date, default: "\'2020-01-01\'" } }';
    const m = (sql: string): Promise<string[]> =>
      problems(manifest(HASH).replace(/columns: \{ payment_id[^\n]*/, cols), { 'keys.sql': sql });
    expect(await m("ALTER TABLE ONLY payment_p1 ALTER COLUMN d SET DEFAULT '2020-06-01';")).toEqual([]);
    expect(await m('ALTER TABLE ONLY payment_p1 ALTER COLUMN d DROP DEFAULT;')).toEqual([]);
    expect(await m('ALTER TABLE ONLY payment_p1 ALTER COLUMN payment_id SET NOT NULL;')).toEqual([]);
    expect((await m('ALTER TABLE ONLY payment_p1 ALTER COLUMN staff_id SET NOT NULL;')).join('\n')).toMatch(
      /not null public\.payment_p1\.staff_id: public\.payment\.staff_id is NOT NULL already/,
    );
    expect((await m("ALTER TABLE ONLY payment_p1 ALTER COLUMN d SET DEFAULT '2020-01-01';")).join('\n')).toMatch(
      /column default public\.payment_p1\.d: it is the default public\.payment\.d has/,
    );
    expect((await m('ALTER TABLE ONLY payment_p1 ALTER COLUMN payment_id DROP DEFAULT;')).join('\n')).toMatch(
      /it is the default public\.payment\.payment_id has/,
    );
    expect((await m('ALTER TABLE ONLY payment_p1 ALTER COLUMN customer_id SET DEFAULT 1;')).join('\n')).toMatch(
      /customer_id is the distribution column of public\.payment: Citus refuses/,
    );
    expect((await m('ALTER TABLE public.lone ALTER COLUMN id SET DEFAULT 1;')).join('\n')).toMatch(
      /public\.lone is neither a partition nor a view or materialized view the manifest declares/,
    );
  });
});
