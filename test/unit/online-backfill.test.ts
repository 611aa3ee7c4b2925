// A new column's volatile default added online (plan/backfill.ts): which tables and defaults get
// the batched fill, the steps in and after the transaction, and a marker found in the cluster.
import { beforeAll, describe, expect, it } from 'vitest';
import type { ClusterModel, Column, Distribution, SqlObject, Table } from '../../src/model/types.js';
import { diff } from '../../src/plan/diff/diff.js';
import { markerName, pendingBackfills } from '../../src/plan/backfill.js';
import { renderSql } from '../../src/plan/steps/step-spec.js';
import { loadParser } from '../../src/sql/pg-parse.js';
import { quoteIdent } from '../../src/sql/quote.js';
import { syncName } from '../../src/plan/fill.js';

const SYNC = syncName({ schema: 'public', name: 't' }, 'ref');
const DROP_SYNC = `SET LOCAL citus.enable_unsafe_triggers TO on; DROP TRIGGER IF EXISTS ${SYNC} ON public.t; SET LOCAL citus.enable_unsafe_triggers TO off; DROP FUNCTION IF EXISTS public.${SYNC}()`;

const col = (name: string, more: Partial<Column> = {}): Column => ({
  name,
  type: { base: 'bigint', sql: 'bigint', serial: false },
  notNull: true,
  ...more,
});
const uuid = (notNull: boolean, def = 'gen_random_uuid()'): Column =>
  col('ref', { type: { base: 'uuid', sql: 'uuid', serial: false }, notNull, default: def });

function table(distribution: Distribution, columns: Column[], more: Partial<Table> = {}): Table {
  return {
    id: 'public.t',
    qname: { schema: 'public', name: 't' },
    columns,
    primaryKey: { columns: ['w'] },
    unique: [],
    indexes: [],
    foreignKeys: [],
    distribution,
    ...more,
  };
}
const model = (tables: Table[], objects: SqlObject[] = []): ClusterModel => ({
  schemas: ['public'],
  objects: Object.fromEntries(objects.map((o) => [o.id, o])),
  tables: Object.fromEntries(tables.map((t) => [t.id, t])),
  groups: {},
  sequences: {},
  routines: {},
});
const hash: Distribution = { kind: 'hash', column: 'w', group: 'g' };

function planned(desired: ClusterModel, actual: ClusterModel, online = true) {
  const r = diff(desired, actual, online ? { online: { table: () => true } } : {});
  const line = (s: (typeof r.steps)[number]) =>
    `${s.runAfterCommit ? 'after ' : ''}${s.kind}: ${renderSql(s).join('; ')}`;
  return r.steps.map(line);
}

/** The marker as the catalog shows it (pg_get_constraintdef). */
const marker = (column: string, quoted = column): SqlObject => ({
  id: `check constraint public.t.${markerName(column)}`,
  kind: 'check constraint',
  name: `public.t.${markerName(column)}`,
  parent: 'relation public.t',
  create: [
    `ALTER TABLE public.t ADD CONSTRAINT ${quoteIdent(markerName(column))} CHECK ((${quoted} IS NOT NULL)) NOT VALID`,
  ],
  drop: [`ALTER TABLE public.t DROP CONSTRAINT ${quoteIdent(markerName(column))}`],
  provides: [],
  deps: [],
});

beforeAll(loadParser);

describe('a volatile default added online', () => {
  it('a distributed table: the column without its default in the transaction, the default for new rows and the marker; filled per shard, validated, NOT NULL set and the marker dropped after COMMIT', () => {
    const lines = planned(model([table(hash, [col('w'), uuid(true)])]), model([table(hash, [col('w')])]));
    expect(lines[0]).toBe('add_column: ALTER TABLE public.t ADD COLUMN ref uuid');
    // The default for new rows; a trigger gives it to a row not filled yet that an UPDATE leaves NULL.
    expect(lines[1]).toBe(
      `start_backfill: ALTER TABLE public.t ALTER COLUMN ref SET DEFAULT gen_random_uuid(); CREATE FUNCTION public.${SYNC}() RETURNS trigger LANGUAGE plpgsql SET search_path TO 'pg_catalog, public' AS $sync$\nBEGIN\n  NEW.ref := gen_random_uuid();\n  RETURN NEW;\nEND\n$sync$; SET LOCAL citus.enable_unsafe_triggers TO on; CREATE TRIGGER ${SYNC} BEFORE UPDATE ON public.t FOR EACH ROW WHEN (OLD.ref IS NULL AND NEW.ref IS NULL) EXECUTE FUNCTION public.${SYNC}(); SET LOCAL citus.enable_unsafe_triggers TO off; ALTER TABLE public.t ADD CONSTRAINT citus_migrate_backfill_ref CHECK (ref IS NOT NULL) NOT VALID`,
    );
    expect(lines[2]).toMatch(/^after backfill_column: DO \$fill\$\n/);
    // Per shard, 64 pages at a time by ctid range, up to the size the shards had when it began.
    expect(lines[2]).toContain(
      "FROM pg_catalog.run_command_on_shards('public.t'::pg_catalog.regclass, $c$UPDATE public.%1$s SET ref = DEFAULT WHERE ctid OPERATOR(pg_catalog.>=) '($c$ OPERATOR(pg_catalog.||) p::pg_catalog.text OPERATOR(pg_catalog.||) $c$,0)'::pg_catalog.tid AND ctid OPERATOR(pg_catalog.<) '($c$ OPERATOR(pg_catalog.||) (p OPERATOR(pg_catalog.+) 64)::pg_catalog.text OPERATOR(pg_catalog.||) $c$,0)'::pg_catalog.tid AND ref IS NULL$c$, false) r;",
    );
    expect(lines[2]).toContain(
      "$c$SELECT pg_catalog.pg_relation_size(('public.' OPERATOR(pg_catalog.||) %1$L)::pg_catalog.regclass)$c$",
    );
    expect(lines.slice(3)).toEqual([
      'after validate_constraint: ALTER TABLE public.t VALIDATE CONSTRAINT citus_migrate_backfill_ref',
      `after finish_backfill: ALTER TABLE public.t ALTER COLUMN ref SET NOT NULL; ALTER TABLE public.t DROP CONSTRAINT citus_migrate_backfill_ref; ${DROP_SYNC}`,
    ]);
  });

  it('a plain table: batches committed inside one DO block; a nullable column only drops the marker', () => {
    const local: Distribution = { kind: 'local' };
    const lines = planned(
      model([table(local, [col('w'), uuid(false, 'clock_timestamp()')])]),
      model([table(local, [col('w')])]),
    );
    expect(lines[2]).toContain(
      "UPDATE public.t SET ref = DEFAULT WHERE ctid OPERATOR(pg_catalog.>=) pg_catalog.format('(%s,0)', p)::pg_catalog.tid AND ctid OPERATOR(pg_catalog.<) pg_catalog.format('(%s,0)', p OPERATOR(pg_catalog.+) 64)::pg_catalog.tid AND ref IS NULL;",
    );
    expect(lines[2]).toContain('COMMIT;');
    expect(lines.slice(3)).toEqual([
      `after finish_backfill: ALTER TABLE public.t DROP CONSTRAINT citus_migrate_backfill_ref; ${DROP_SYNC}`,
    ]);
  });

  it('rewritten as before where rows cannot be told by ctid or the default draws from a sequence, or not online', () => {
    const before = (t: Table) => model([{ ...t, columns: [col('w')] }]);
    const cases: [string, Table, boolean][] = [
      ['reference', table({ kind: 'reference' }, [col('w'), uuid(true)]), true],
      ['partitioned', table(hash, [col('w'), uuid(true)], { partitionBy: 'RANGE (w)' }), true],
      ['sequence', table(hash, [col('w'), uuid(true, "nextval('s'::regclass)")]), true],
      ['not online', table(hash, [col('w'), uuid(true)]), false],
    ];
    const trigger: SqlObject = {
      id: 'trigger public.t.touch',
      kind: 'trigger',
      name: 'public.t.touch',
      parent: 'relation public.t',
      create: ['CREATE TRIGGER touch BEFORE UPDATE ON public.t FOR EACH ROW EXECUTE FUNCTION public.touch()'],
      provides: [],
      deps: [],
    };
    const withTrigger = (m: ClusterModel): ClusterModel => ({ ...m, objects: { [trigger.id]: trigger } });
    cases.push(['columnar', table(hash, [col('w'), uuid(true)], { accessMethod: 'columnar' }), true]);
    for (const [what, t, online] of cases) {
      const lines = planned(model([t]), before(t), online);
      expect(
        lines.some((l) => l.includes('backfill')),
        what,
      ).toBe(false);
      expect(
        lines.filter((l) => l.startsWith('add_column:')),
        what,
      ).toHaveLength(1);
    }
    // A trigger would fire on the fill's UPDATE (ADD COLUMN fires none): rewritten as before.
    const t = table(hash, [col('w'), uuid(true)]);
    const lines = planned(withTrigger(model([t])), withTrigger(before(t)));
    expect(lines.some((l) => l.includes('backfill'))).toBe(false);
  });

  it('a marker an interrupted apply left: found by its name and CHECK, the fill and the finish planned again (online or not), no SET NOT NULL in the transaction', () => {
    const actual = model([table(hash, [col('w'), uuid(false)])], [marker('ref')]);
    expect(pendingBackfills(actual).pending).toEqual([
      {
        table: { schema: 'public', name: 't' },
        column: 'ref',
        marker: 'citus_migrate_backfill_ref',
        object: marker('ref').id,
        validated: false,
      },
    ]);
    const lines = planned(model([table(hash, [col('w'), uuid(true)])]), actual, false);
    expect(lines.map((l) => l.split(':')[0])).toEqual([
      'after backfill_column',
      'after validate_constraint',
      'after finish_backfill',
    ]);
    // A quoted column; a constraint merely named like one (validated, or another CHECK) is the user's.
    const odd = 'Ref "x"';
    expect(
      pendingBackfills(model([table(hash, [col('w'), col(odd)])], [marker(odd, '"Ref ""x"""')])).pending,
    ).toHaveLength(1);
    const other = { ...marker('ref'), create: [marker('ref').create[0]!.replace('(ref IS NOT NULL)', '(ref <> w)')] };
    expect(pendingBackfills(model([table(hash, [col('w'), uuid(false)])], [other])).pending).toEqual([]);
    // Validated (the apply stopped after filling): only the finish is left.
    const valid = { ...marker('ref'), create: [marker('ref').create[0]!.replace(' NOT VALID', '')] };
    const finish = planned(
      model([table(hash, [col('w'), uuid(true)])]),
      model([table(hash, [col('w'), uuid(false)])], [valid]),
      false,
    );
    expect(finish).toEqual([
      `after finish_backfill: ALTER TABLE public.t ALTER COLUMN ref SET NOT NULL; ALTER TABLE public.t DROP CONSTRAINT citus_migrate_backfill_ref; ${DROP_SYNC}`,
    ]);
  });

  it('the marker of a column the manifest no longer declares is dropped; the name is cut to 63 bytes', () => {
    const actual = model([table(hash, [col('w'), uuid(false)])], [marker('ref')]);
    expect(planned(model([table(hash, [col('w')])]), actual, false)).toContain(
      `finish_backfill: ALTER TABLE public.t DROP CONSTRAINT citus_migrate_backfill_ref; ${DROP_SYNC}`,
    );
    expect(Buffer.byteLength(markerName('é'.repeat(40)))).toBeLessThanOrEqual(63);
  });
});
