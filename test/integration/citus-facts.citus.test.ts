// The Citus behaviours (docs/citus-facts.md) the planner relies on, pinned against a real
// coordinator + 2 workers. If Citus changes one of them, this file says which.
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { readCatalogChecked as readCatalog } from '../support/catalog-oracle.js';
import { citusServers, freshDatabase, sql, type TestDb, firstError } from '../support/db.js';

const citus = citusServers();

const run = firstError;

describe.skipIf(!citus)('Citus facts the plan depends on', () => {
  let db: TestDb;
  beforeAll(async () => {
    db = await freshDatabase(citus!, 'facts');
  });

  it('without sequential mode, DDL after a parallel create_distributed_table fails in the same transaction', async () => {
    await db.query('CREATE TABLE p1 (id bigint PRIMARY KEY)');
    const fn = 'CREATE FUNCTION p1f() RETURNS int LANGUAGE plpgsql AS $$ BEGIN RETURN 1; END $$';
    const err = await run(db.url, ['BEGIN', "SELECT create_distributed_table('p1', 'id', shard_count => 32)", fn]);
    expect(err).toBe(
      'cannot run function command because there was a parallel operation on a distributed table in the transaction',
    );
    const ok = await run(db.url, [
      'BEGIN',
      "SET LOCAL citus.multi_shard_modify_mode TO 'sequential'",
      "SELECT create_distributed_table('p1', 'id', shard_count => 32)",
      fn,
      'ROLLBACK',
    ]);
    expect(ok).toBeUndefined();
  });

  it('ROLLBACK removes the shards a transaction made', async () => {
    await db.query('CREATE TABLE rb (id bigint)');
    expect(
      await run(db.url, ['BEGIN', "SELECT create_distributed_table('rb', 'id', shard_count => 4)", 'ROLLBACK']),
    ).toBeUndefined();
    expect(
      await db.query("SELECT count(*)::int AS n FROM pg_dist_partition WHERE logicalrelid = 'rb'::regclass"),
    ).toEqual([{ n: 0 }]);
  });

  it('a NULL colocate_with is a silent no-op', async () => {
    await db.query('CREATE TABLE nul (id bigint)');
    expect(await run(db.url, ["SELECT create_distributed_table('nul', 'id', colocate_with => NULL)"])).toBeUndefined();
    expect(
      await db.query("SELECT count(*)::int AS n FROM pg_dist_partition WHERE logicalrelid = 'nul'::regclass"),
    ).toEqual([{ n: 0 }]);
  });

  it('DEFERRABLE foreign keys between colocated tables are accepted; ALTER CONSTRAINT is refused, DROP + ADD is not', async () => {
    await db.query(
      "CREATE TABLE dp (id bigint PRIMARY KEY); CREATE TABLE dc (id bigint, p bigint, PRIMARY KEY (id, p)); SELECT create_distributed_table('dp', 'id', colocate_with => 'none', shard_count => 4); SELECT create_distributed_table('dc', 'p', colocate_with => 'dp')",
    );
    expect(
      await run(db.url, [
        'ALTER TABLE dc ADD CONSTRAINT dc_p_fk FOREIGN KEY (p) REFERENCES dp (id) DEFERRABLE INITIALLY DEFERRED',
      ]),
    ).toBeUndefined();
    // Checked at COMMIT: an orphan row inserted first and its parent after commit together.
    expect(
      await run(db.url, ['BEGIN', 'INSERT INTO dc VALUES (1, 7)', 'INSERT INTO dp VALUES (7)', 'COMMIT']),
    ).toBeUndefined();
    expect(await run(db.url, ['ALTER TABLE dc ALTER CONSTRAINT dc_p_fk NOT DEFERRABLE'])).toBe(
      'alter table command is currently unsupported',
    );
    expect(
      await run(db.url, [
        'BEGIN',
        'ALTER TABLE dc DROP CONSTRAINT dc_p_fk',
        'ALTER TABLE dc ADD CONSTRAINT dc_p_fk FOREIGN KEY (p) REFERENCES dp (id) DEFERRABLE',
        'COMMIT',
      ]),
    ).toBeUndefined();
  });

  it('int and bigint distribution columns cannot be colocated', async () => {
    await db.query(
      "CREATE TABLE ci (id int); CREATE TABLE cb (id bigint); SELECT create_distributed_table('ci', 'id', colocate_with => 'none', shard_count => 4)",
    );
    expect(await run(db.url, ["SELECT create_distributed_table('cb', 'id', colocate_with => 'ci')"])).toMatch(
      /cannot colocate tables ci and cb|Distribution column types don't match/,
    );
  });

  it('shard_count together with a table in colocate_with is an error', async () => {
    await db.query(
      "CREATE TABLE sc_anchor (id int); SELECT create_distributed_table('sc_anchor', 'id', colocate_with => 'none', shard_count => 4); CREATE TABLE sc (id int)",
    );
    expect(
      await run(db.url, [
        "SELECT create_distributed_table('sc', 'id', colocate_with => 'sc_anchor', shard_count => 4)",
      ]),
    ).toBe('Cannot use colocate_with with a table and shard_count at the same time');
    expect(
      await db.query("SELECT count(*)::int AS n FROM pg_dist_partition WHERE logicalrelid = 'sc'::regclass"),
    ).toEqual([{ n: 0 }]);
  });

  it('the distribution column name is matched verbatim (case-sensitive)', async () => {
    await db.query('CREATE TABLE cs (w_id int)');
    expect(await run(db.url, ["SELECT create_distributed_table('cs', 'W_ID', shard_count => 4)"])).toMatch(/W_ID/);
  });

  it('a distributed sequence refuses ALTER SEQUENCE; before distribution, in the same transaction, it reaches the workers', async () => {
    expect(
      await run(db.url, [
        'BEGIN',
        "SET LOCAL citus.multi_shard_modify_mode TO 'sequential'",
        'CREATE TABLE sq (t bigint, id bigserial)',
        'ALTER SEQUENCE sq_id_seq CACHE 77',
        "SELECT create_distributed_table('sq', 't', shard_count => 4)",
        'COMMIT',
      ]),
    ).toBeUndefined();
    expect(await db.query("SELECT cache_size::int AS c FROM pg_sequences WHERE sequencename = 'sq_id_seq'", 1)).toEqual(
      [{ c: 77 }],
    );
    expect(await run(db.url, ['ALTER SEQUENCE sq_id_seq CACHE 5'])).toBe(
      'Altering a distributed sequence is currently not supported.',
    );
  });

  it('a foreign key of a distributed table cannot be renamed (RENAME CONSTRAINT), dropped and added under the new name it can; a distributed sequence refuses OWNED BY', async () => {
    await db.query(
      "CREATE TABLE rp (id bigint PRIMARY KEY); CREATE TABLE rc (id bigint, p bigint REFERENCES rp (id), PRIMARY KEY (id, p)); SELECT create_distributed_table('rp', 'id', colocate_with => 'none', shard_count => 4); SELECT create_distributed_table('rc', 'p', colocate_with => 'rp')",
    );
    expect(await run(db.url, ['ALTER TABLE rc RENAME CONSTRAINT rc_p_fkey TO rc_parent'])).toBe(
      'renaming constraints belonging to distributed tables is currently unsupported',
    );
    expect(
      await run(db.url, [
        'BEGIN',
        'ALTER TABLE rc DROP CONSTRAINT rc_p_fkey',
        'ALTER TABLE rc ADD CONSTRAINT rc_parent FOREIGN KEY (p) REFERENCES rp (id)',
        'COMMIT',
      ]),
    ).toBeUndefined();
    await db.query(
      "CREATE TABLE ro (t bigint, id bigserial); SELECT create_distributed_table('ro', 't', shard_count => 4)",
    );
    expect(await run(db.url, ['ALTER SEQUENCE ro_id_seq OWNED BY NONE'])).toBe(
      'cannot alter OWNED BY option of a sequence already owned by a distributed table',
    );
  });

  it('int sequences cannot be used on workers; bigint ones draw from a per-node range', async () => {
    await db.query(
      "CREATE TABLE si (t bigint, id serial); SELECT create_distributed_table('si', 't', shard_count => 4)",
    );
    expect(
      await run(db.url.replace(`:${citus!.nodes[0]!.port}/`, `:${citus!.nodes[1]!.port}/`), [
        'INSERT INTO si (t) VALUES (1)',
      ]),
    ).toMatch(
      /nextval\(sequence\) calls in worker nodes are not supported for column defaults of type int or smallint/,
    );
    const [row] = await db.query<{ id: string }>('INSERT INTO sq (t) VALUES (1) RETURNING id::text', 1);
    expect(BigInt(row!.id)).toBeGreaterThan(2n ** 48n);
  });

  it('CALL is delegated with literal arguments but not with bind parameters; SELECT f($1) is', async () => {
    await db.query("CREATE TABLE dw (w int PRIMARY KEY); SELECT create_distributed_table('dw', 'w', shard_count => 4)");
    await db.query(
      'CREATE PROCEDURE dp(w int) LANGUAGE plpgsql AS $$ BEGIN PERFORM 1 FROM dw WHERE dw.w = dp.w; END $$',
    );
    await db.query('CREATE FUNCTION df(w int) RETURNS int LANGUAGE plpgsql AS $$ BEGIN RETURN w; END $$');
    await db.query(
      "SELECT create_distributed_function('dp(int)', '$1', colocate_with => 'dw'); SELECT create_distributed_function('df(int)', '$1', colocate_with => 'dw')",
    );
    const notices = async (text: string, values?: unknown[]): Promise<string[]> => {
      const client = new pg.Client({ connectionString: db.url });
      const out: string[] = [];
      client.on('notice', (n) => out.push(n.message ?? ''));
      await client.connect();
      try {
        await client.query('SET client_min_messages TO debug1');
        await client.query(text, values);
        return out;
      } finally {
        await client.end();
      }
    };
    expect(await notices('CALL dp(3)')).toContain('pushing down the procedure');
    expect(await notices('CALL dp($1)', [3])).not.toContain('pushing down the procedure');
    expect(await notices('SELECT df($1)', [3])).toContain('pushing down the function call');
    expect(await notices('BEGIN; CALL dp(3); COMMIT')).not.toContain('pushing down the procedure');
  });

  it('Citus adds no object of its own that a plan would name as not managed (its truncate trigger is internal)', async () => {
    const own = await freshDatabase(citus!, 'facts_nm');
    expect(
      await run(own.url, [
        'CREATE TABLE nm_d (id bigint PRIMARY KEY)',
        "SELECT create_distributed_table('nm_d', 'id', shard_count => 4)",
        'CREATE TABLE nm_r (id bigint PRIMARY KEY)',
        "SELECT create_reference_table('nm_r')",
        'CREATE FUNCTION nm_f(bigint) RETURNS bigint LANGUAGE sql AS $$ SELECT $1 $$',
        "SELECT create_distributed_function('nm_f(bigint)', '$1', colocate_with => 'nm_d')",
      ]),
    ).toBeUndefined();
    expect(
      await own.query(
        "SELECT tgname LIKE 'truncate_trigger%' AS citus, tgisinternal FROM pg_trigger WHERE tgrelid = 'nm_d'::regclass",
      ),
    ).toEqual([{ citus: true, tgisinternal: true }]);
    const client = new pg.Client({ connectionString: own.url });
    await client.connect();
    try {
      expect((await readCatalog(client)).doc.notManaged).toEqual([]);
    } finally {
      await client.end();
    }
  });

  it('Citus hides shards by adding relation_is_a_known_shard() to every pg_class scan, unless citus.override_table_visibility is off', async () => {
    const plan = async (options?: string): Promise<string> => {
      const client = new pg.Client({ connectionString: db.url, ...(options ? { options } : {}) });
      await client.connect();
      try {
        return (await client.query('EXPLAIN SELECT count(*) FROM pg_catalog.pg_class')).rows
          .map((r) => r['QUERY PLAN'])
          .join('\n');
      } finally {
        await client.end();
      }
    };
    expect(await plan()).toContain('relation_is_a_known_shard');
    expect(await plan('-c citus.override_table_visibility=off')).not.toContain('relation_is_a_known_shard');
  });
  it('create_distributed_table splits the hash range evenly; isolate_tenant_to_new_shard leaves a one-value shard at worker_hash(v), in a transaction block', async () => {
    const bounds = async (t: string) =>
      (
        await db.query<{ lo: string; hi: string }>(
          `SELECT shardminvalue AS lo, shardmaxvalue AS hi FROM pg_dist_shard WHERE logicalrelid = '${t}'::regclass ORDER BY shardminvalue::bigint`,
        )
      ).map((r) => [Number(r.lo), Number(r.hi)]);
    await db.query(
      "CREATE TABLE ev3 (id int); SELECT create_distributed_table('ev3', 'id', shard_count => 3, colocate_with => 'none')",
    );
    const step = Math.floor(2 ** 32 / 3);
    expect(await bounds('ev3')).toEqual([
      [-(2 ** 31), -(2 ** 31) + step - 1],
      [-(2 ** 31) + step, -(2 ** 31) + 2 * step - 1],
      [-(2 ** 31) + 2 * step, 2 ** 31 - 1],
    ]);
    await db.query(
      "CREATE TABLE iso1 (id int); SELECT create_distributed_table('iso1', 'id', shard_count => 4, colocate_with => 'none')",
    );
    expect(
      await run(db.url, [
        'BEGIN',
        "SELECT isolate_tenant_to_new_shard('iso1', 5, shard_transfer_mode => 'block_writes')",
        'COMMIT',
      ]),
    ).toBeUndefined();
    const [h] = await db.query<{ h: number }>('SELECT worker_hash(5) AS h');
    const b = await bounds('iso1');
    expect(b).toHaveLength(6);
    expect(b).toContainEqual([h!.h, h!.h]);
  });

  it('shard_replication_factor 2 gives two placements per shard and statement replication', async () => {
    await db.query(
      "SET citus.shard_replication_factor = 2; CREATE TABLE rp2 (id int); SELECT create_distributed_table('rp2', 'id', shard_count => 3, colocate_with => 'none')",
    );
    expect(
      await db.query(
        `SELECT p.repmodel::text AS repmodel, (SELECT array_agg(DISTINCT n) FROM (SELECT count(*)::int AS n FROM pg_dist_shard s
           JOIN pg_dist_placement pl USING (shardid) WHERE s.logicalrelid = p.logicalrelid GROUP BY s.shardid) x) AS placements
         FROM pg_dist_partition p WHERE p.logicalrelid = 'rp2'::regclass`,
      ),
    ).toEqual([{ repmodel: 'c', placements: [2] }]);
  });

  it('a routine colocates with a reference table only without a distribution argument, and with a hash table only with one', async () => {
    await db.query(
      "CREATE TABLE cref (id int PRIMARY KEY); SELECT create_reference_table('cref'); CREATE TABLE chash (id int); SELECT create_distributed_table('chash', 'id', shard_count => 4, colocate_with => 'none')",
    );
    await db.query('CREATE FUNCTION cr1(x int) RETURNS int LANGUAGE sql AS $$ SELECT x $$');
    expect(
      await run(db.url, ["SELECT create_distributed_function('cr1(int)', colocate_with => 'cref')"]),
    ).toBeUndefined();
    expect(
      await db.query(
        `SELECT o.distribution_argument_index AS arg, o.colocationid = p.colocationid AS reference
           FROM pg_dist_object o, pg_dist_partition p WHERE o.objid = 'cr1(int)'::regprocedure AND p.logicalrelid = 'cref'::regclass`,
      ),
    ).toEqual([{ arg: null, reference: true }]);
    expect(
      await run(db.url, ["SELECT create_distributed_function('cr1(int)', '$1', colocate_with => 'cref')"]),
    ).toMatch(/distribution arguments are not supported when colocating with reference tables/);
    expect(await run(db.url, ["SELECT create_distributed_function('cr1(int)', colocate_with => 'chash')"])).toMatch(
      /cannot distribute the function "cr1" since the distribution argument is not valid/,
    );
  });

  it('with citus.enable_metadata_sync off a CREATE FUNCTION stays on the coordinator; CREATE OR REPLACE with it on distributes it', async () => {
    expect(
      await run(db.url, [
        'BEGIN',
        'SET LOCAL citus.enable_metadata_sync TO off',
        'CREATE FUNCTION nsync(x int) RETURNS int LANGUAGE sql AS $$ SELECT x $$',
        'RESET citus.enable_metadata_sync',
        'COMMIT',
      ]),
    ).toBeUndefined();
    const known = async () =>
      (
        await db.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM pg_dist_object WHERE objid = 'nsync(int)'::regprocedure",
        )
      )[0]!.n;
    expect(await known()).toBe(0);
    expect(await db.query("SELECT count(*)::int AS n FROM pg_proc WHERE proname = 'nsync'", 1)).toEqual([{ n: 0 }]);
    await db.query('CREATE OR REPLACE FUNCTION nsync(x int) RETURNS int LANGUAGE sql AS $$ SELECT x + 1 $$');
    expect(await known()).toBe(1);
    expect(await db.query("SELECT count(*)::int AS n FROM pg_proc WHERE proname = 'nsync'", 1)).toEqual([{ n: 1 }]);
  });
  it('a sequence distributed for a default stays in pg_dist_object once the default is dropped; an identity sequence is never there', async () => {
    // One statement per call: in one implicit transaction Citus refuses the DROP DEFAULT after distributing.
    for (const statement of [
      "CREATE SEQUENCE orph; CREATE TABLE orph_t (k int, id bigint DEFAULT nextval('orph'), i bigint GENERATED BY DEFAULT AS IDENTITY)",
      "SELECT create_distributed_table('orph_t', 'k', shard_count => 2, colocate_with => 'none')",
      'ALTER TABLE orph_t ALTER COLUMN id DROP DEFAULT',
    ])
      await db.query(statement);
    expect(
      await db.query(
        `SELECT c.relname FROM pg_dist_object o JOIN pg_class c ON c.oid = o.objid AND c.relkind = 'S'
          WHERE o.classid = 'pg_class'::regclass AND c.relname IN ('orph', 'orph_t_i_seq')`,
      ),
    ).toEqual([{ relname: 'orph' }]);
  });

  it("identity columns: integer and smallint ones distribute; options set before distributing reach the workers (a bigint one with the worker's own range); after, Citus refuses every change of them", async () => {
    for (const statement of [
      'CREATE TABLE idf (k bigint, id bigint GENERATED BY DEFAULT AS IDENTITY, v int)',
      'CREATE TABLE idf_i (k bigint, id integer GENERATED ALWAYS AS IDENTITY (START WITH -100 INCREMENT BY -1), v int)',
      'CREATE TABLE idf_s (id smallint GENERATED BY DEFAULT AS IDENTITY, v int)',
      'CREATE TABLE idf_l (id bigint GENERATED BY DEFAULT AS IDENTITY, v int)',
    ])
      await db.query(statement);
    // In the transaction that distributes it, ALTER COLUMN … SET <option> before create_distributed_table works.
    expect(
      await run(db.url, [
        'BEGIN',
        'ALTER TABLE idf ALTER COLUMN id SET INCREMENT BY 4 SET CACHE 5 SET CYCLE',
        "SELECT create_distributed_table('idf', 'k', shard_count => 2, colocate_with => 'none')",
        "SELECT create_distributed_table('idf_i', 'k', shard_count => 2, colocate_with => 'none')",
        "SELECT create_reference_table('idf_s')",
        "SELECT citus_add_local_table_to_metadata('idf_l')",
        'COMMIT',
      ]),
    ).toBeUndefined();
    await db.query('INSERT INTO idf_i (k, v) VALUES (1, 1); INSERT INTO idf_s (v) VALUES (1)');
    expect(await db.query('SELECT (SELECT id FROM idf_i) AS i, (SELECT id FROM idf_s) AS s')).toEqual([
      { i: -100, s: 1 },
    ]);
    const seq = `SELECT seqincrement::int AS inc, seqcache::int AS cache, seqcycle AS cycle, seqmin::text AS min, seqmax::text AS max
      FROM pg_sequence WHERE seqrelid = 'idf_id_seq'::regclass`;
    expect(await db.query(seq)).toEqual([{ inc: 4, cache: 5, cycle: true, min: '1', max: '9223372036854775807' }]);
    // On a worker: the options, and MINVALUE / MAXVALUE of the worker's group (g·2^48 + 1 …).
    const [w] = await db.query<{ inc: number; cache: number; cycle: boolean; min: string; max: string }>(seq, 1);
    expect([w!.inc, w!.cache, w!.cycle, BigInt(w!.min) % 2n ** 48n]).toEqual([4, 5, true, 1n]);
    for (const t of ['idf', 'idf_s', 'idf_l'])
      for (const change of [
        'SET INCREMENT BY 7',
        'SET CACHE 20',
        'SET START WITH 1000',
        'SET MAXVALUE 1000000',
        'RESTART',
      ])
        expect(await run(db.url, [`ALTER TABLE ${t} ALTER COLUMN id ${change}`]), `${t} ${change}`).toBe(
          'alter table command is currently unsupported',
        );
    expect(await run(db.url, ['ALTER SEQUENCE idf_id_seq INCREMENT BY 9'])).toBe(
      'Altering a distributed sequence is currently not supported.',
    );
  });

  it('DETACH PARTITION of a distributed partitioned table, in a transaction block: the partition stays distributed, colocated, with its rows', async () => {
    await db.query(
      "CREATE TABLE dpar (d date NOT NULL, id bigint NOT NULL, PRIMARY KEY (d, id)) PARTITION BY RANGE (d); CREATE TABLE dpar1 PARTITION OF dpar FOR VALUES FROM ('2020-01-01') TO ('2021-01-01'); SELECT create_distributed_table('dpar', 'id', shard_count => 4, colocate_with => 'none')",
    );
    await db.query("INSERT INTO dpar VALUES ('2020-05-01', 1), ('2020-06-01', 2), ('2020-07-01', 3)");
    expect(
      await run(db.url, [
        'BEGIN',
        "SET LOCAL citus.multi_shard_modify_mode TO 'sequential'",
        'ALTER TABLE dpar DETACH PARTITION dpar1',
        'COMMIT',
      ]),
    ).toBeUndefined();
    expect(
      await db.query(
        `SELECT logicalrelid::text AS t, partmethod AS m, column_to_column_name(logicalrelid, partkey) AS col,
            colocationid = (SELECT colocationid FROM pg_dist_partition WHERE logicalrelid = 'dpar'::regclass) AS colocated
          FROM pg_dist_partition WHERE logicalrelid = 'dpar1'::regclass`,
      ),
    ).toEqual([{ t: 'dpar1', m: 'h', col: 'id', colocated: true }]);
    expect(
      await db.query('SELECT (SELECT count(*)::int FROM dpar1) AS kept, (SELECT count(*)::int FROM dpar) AS left'),
    ).toEqual([{ kept: 3, left: 0 }]);
  });

  it('shards as plan --shards reads and repairs them: names carry the shard id (a CHECK constraint keeps its own), run_command_on_all_nodes sees them, master_run_on_worker returns a failure as a row', async () => {
    await db.query(
      "SET citus.shard_count = 2; CREATE TABLE sf (id int PRIMARY KEY, v int CHECK (v > 0)); CREATE INDEX sf_v ON sf (v); SELECT create_distributed_table('sf', 'id')",
    );
    const [first] = await db.query<{ id: string; host: string; port: number }>(
      `SELECT s.shardid::text AS id, n.nodename AS host, n.nodeport AS port FROM pg_dist_shard s
         JOIN pg_dist_placement p USING (shardid) JOIN pg_dist_node n USING (groupid)
        WHERE s.logicalrelid = 'sf'::regclass ORDER BY s.shardid LIMIT 1`,
    );
    const names = await db.query<{ result: string }>(
      `SELECT result FROM run_command_on_all_nodes($$SELECT string_agg(x, ',' ORDER BY x) FROM (
         SELECT indexrelid::regclass::text AS x FROM pg_index WHERE indrelid = 'sf_${first!.id}'::regclass
         UNION ALL SELECT conname FROM pg_constraint WHERE conrelid = 'sf_${first!.id}'::regclass) n$$)
        WHERE success AND result IS NOT NULL`,
    );
    expect(names.map((r) => r.result)).toEqual([
      `sf_pkey_${first!.id},sf_pkey_${first!.id},sf_v_${first!.id},sf_v_check`,
    ]);
    const failed = await db.query<{ success: boolean; result: string }>(
      `SELECT success, result FROM master_run_on_worker(ARRAY['${first!.host}'], ARRAY[${first!.port}], ARRAY['REINDEX INDEX no_such_index'], false)`,
    );
    expect(failed).toEqual([{ success: false, result: 'ERROR:  relation "no_such_index" does not exist' }]);
  });
  it('a distributed function colocates on an argument of another type when an explicit cast exists (bigint → integer, text → macaddr), and not when none does', async () => {
    await db.query(
      "CREATE TABLE cti (id integer); SELECT create_distributed_table('cti', 'id', colocate_with => 'none', shard_count => 2); CREATE TABLE ctm (k macaddr); SELECT create_distributed_table('ctm', 'k', colocate_with => 'none', shard_count => 2)",
    );
    await db.query(
      'CREATE FUNCTION cfb(a bigint) RETURNS void LANGUAGE plpgsql AS $$ BEGIN END $$; CREATE FUNCTION cft(a text) RETURNS void LANGUAGE plpgsql AS $$ BEGIN END $$; CREATE FUNCTION cfp(a point) RETURNS void LANGUAGE plpgsql AS $$ BEGIN END $$',
    );
    expect(
      await run(db.url, ["SELECT create_distributed_function('cfb(bigint)', '$1', colocate_with => 'cti')"]),
    ).toBeUndefined();
    expect(
      await run(db.url, ["SELECT create_distributed_function('cft(text)', '$1', colocate_with => 'ctm')"]),
    ).toBeUndefined();
    expect(
      await run(db.url, ["SELECT create_distributed_function('cfp(point)', '$1', colocate_with => 'cti')"]),
    ).toMatch(/because distribution column types don't match and there is no coercion path/);
  });

  it('a reference table may have a foreign key to a citus_local table', async () => {
    await db.query(
      "CREATE TABLE rcl (id int UNIQUE); SELECT citus_add_local_table_to_metadata('rcl'); CREATE TABLE rref (id int UNIQUE); SELECT create_reference_table('rref')",
    );
    expect(
      await run(db.url, ['ALTER TABLE rref ADD CONSTRAINT rref_fk FOREIGN KEY (id) REFERENCES rcl (id)']),
    ).toBeUndefined();
  });

  it("a distributed table's partition takes keys, foreign keys, defaults and NOT NULL of its own (ALTER TABLE ONLY), under the parent's rules", async () => {
    await db.query(
      [
        'CREATE TABLE pk_c (c int PRIMARY KEY)',
        "SELECT create_distributed_table('pk_c', 'c')",
        'CREATE TABLE pk_m (c int NOT NULL, id int NOT NULL, d date NOT NULL, v text) PARTITION BY RANGE (d)',
        "CREATE TABLE pk_m1 PARTITION OF pk_m FOR VALUES FROM ('2020-01-01') TO ('2021-01-01')",
        "SELECT create_distributed_table('pk_m', 'c', colocate_with => 'pk_c')",
      ].join(';\n'),
    );
    expect(
      await run(db.url, [
        'ALTER TABLE ONLY pk_m1 ADD CONSTRAINT pk_m1_pkey PRIMARY KEY (c, id, d)',
        'ALTER TABLE ONLY pk_m1 ADD CONSTRAINT pk_m1_c_fkey FOREIGN KEY (c) REFERENCES pk_c (c)',
        "ALTER TABLE ONLY pk_m1 ALTER COLUMN v SET DEFAULT 'x'",
        'ALTER TABLE ONLY pk_m1 ALTER COLUMN v SET NOT NULL',
      ]),
    ).toBeUndefined();
    expect(await run(db.url, ['ALTER TABLE ONLY pk_m1 ADD CONSTRAINT pk_m1_u UNIQUE (id, d)'])).toBe(
      'cannot create constraint on "pk_m1"',
    );
    expect(
      await run(db.url, ['ALTER TABLE ONLY pk_m1 ADD CONSTRAINT pk_m1_id_fkey FOREIGN KEY (id) REFERENCES pk_c (c)']),
    ).toBe('cannot create foreign key constraint');
    expect(await run(db.url, ['ALTER TABLE ONLY pk_m1 ALTER COLUMN c SET DEFAULT 1'])).toBe(
      'cannot execute ALTER TABLE command involving partition column',
    );
  });
  it("DDL Citus sends on as the statement's text fails in a message of several statements: the text is the whole message", async () => {
    await db.query("CREATE TABLE multi_d (a int, b int); SELECT create_distributed_table('multi_d', 'a')");
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    try {
      // One simple-protocol message (apply's batches on plain PostgreSQL): Citus prepares the
      // message's text on each worker for the index's shards.
      await expect(c.query('BEGIN; SELECT 1; CREATE INDEX multi_d_b ON multi_d (b); COMMIT')).rejects.toThrow(
        'cannot insert multiple commands into a prepared statement',
      );
      await c.query('ROLLBACK');
      // One statement per message: fine.
      for (const sql of ['BEGIN', 'SELECT 1', 'CREATE INDEX multi_d_b ON multi_d (b)', 'COMMIT']) await c.query(sql);
    } finally {
      await c.end();
    }
    expect(await db.query("SELECT count(*)::int AS n FROM pg_indexes WHERE indexname = 'multi_d_b'")).toEqual([
      { n: 1 },
    ]);
  });

  it('run_command_on_workers is PL/pgSQL that names array_agg without a schema and pins no search_path: with public first, a look-alike there runs as the caller', async () => {
    const [def] = await db.query<{ config: string[] | null; lang: string }>(
      `SELECT p.proconfig AS config, l.lanname AS lang FROM pg_catalog.pg_proc p JOIN pg_catalog.pg_language l ON l.oid = p.prolang
        WHERE p.oid = 'pg_catalog.run_command_on_workers(text, boolean)'::pg_catalog.regprocedure`,
    );
    expect(def).toEqual({ config: null, lang: 'plpgsql' });
    const err = await run(db.url, [
      'BEGIN',
      // A look-alike that tells it ran (a real one would make its owner a superuser): an
      // aggregate on text, a better match for text than pg_catalog's array_agg(anynonarray).
      "CREATE FUNCTION public.cm_la(text[], text) RETURNS text[] LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'look-alike ran'; END $$",
      'CREATE AGGREGATE public.array_agg(text) (SFUNC = public.cm_la, STYPE = text[])',
      'SET LOCAL search_path = public, pg_catalog',
      "SELECT * FROM pg_catalog.run_command_on_workers('SELECT 1')",
      'ROLLBACK',
    ]);
    expect(err).toBe('look-alike ran');
    // With pg_catalog alone on the path (what the tool pins around every Citus call) it does not.
    const ok = await run(db.url, [
      'BEGIN',
      "CREATE FUNCTION public.cm_la(text[], text) RETURNS text[] LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'look-alike ran'; END $$",
      'CREATE AGGREGATE public.array_agg(text) (SFUNC = public.cm_la, STYPE = text[])',
      'SET LOCAL search_path = pg_catalog, pg_temp',
      "SELECT * FROM pg_catalog.run_command_on_workers('SELECT 1')",
      'ROLLBACK',
    ]);
    expect(ok).toBeUndefined();
  });

  it("a type on a worker named like the distribution column's built-in type (a domain other.int8) makes distributing a table fail", async () => {
    const name = `int8_${Math.random().toString(36).slice(2, 8)}`;
    await sql(
      citus!,
      db.name,
      [
        'SET citus.enable_ddl_propagation TO off',
        `CREATE SCHEMA ${name}`,
        `CREATE DOMAIN ${name}.int8 AS pg_catalog.int8`,
      ],
      1,
    );
    await db.query(`CREATE TABLE ${name}_t (id bigint PRIMARY KEY)`);
    const err = await run(db.url, [`SELECT create_distributed_table('${name}_t', 'id', colocate_with => 'none')`]);
    expect(err).toBe('duplicate key value violates unique constraint "pg_dist_colocation_pkey"');
    await sql(citus!, db.name, ['SET citus.enable_ddl_propagation TO off', `DROP SCHEMA ${name} CASCADE`], 1);
  });

  it("which of Citus's functions fire a table's triggers on the rows they copy, a partitioned table's too", async () => {
    // Each copy into a fresh shape of t adds 1 to every row's v when the copy fires the trigger.
    await db.query(`CREATE FUNCTION fire_add() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN NEW.v := NEW.v + 1; RETURN NEW; END $$;
      CREATE TABLE fire (id int PRIMARY KEY, v int NOT NULL);
      INSERT INTO fire SELECT g, 0 FROM generate_series(1, 10) g;
      CREATE TRIGGER fire_add BEFORE INSERT ON fire FOR EACH ROW EXECUTE FUNCTION fire_add();
      ALTER TABLE fire ENABLE ALWAYS TRIGGER fire_add`);
    const sum = async (): Promise<number> => (await db.query<{ s: number }>('SELECT sum(v)::int AS s FROM fire'))[0]!.s;
    const unsafe = 'SET citus.enable_unsafe_triggers TO on';
    const calls: [string, number][] = [];
    for (const call of [
      "SELECT create_distributed_table_concurrently('fire', 'id', shard_count => 2)",
      "SELECT alter_distributed_table('fire', shard_count => 4, cascade_to_colocated => false)",
      "SELECT undistribute_table('fire')",
      "SELECT create_distributed_table('fire', 'id', shard_count => 2)",
      "SELECT undistribute_table('fire')",
      "SELECT create_reference_table('fire')",
      "SELECT undistribute_table('fire')",
      "SELECT create_distributed_table('fire', NULL, colocate_with => 'none')",
    ]) {
      const before = await sum();
      expect(await run(db.url, [unsafe, call])).toBeUndefined();
      calls.push([call.replace(/\(.*/, ''), (await sum()) - before]);
    }
    expect(calls).toEqual([
      ['SELECT create_distributed_table_concurrently', 0],
      ['SELECT alter_distributed_table', 0],
      ['SELECT undistribute_table', 0],
      ['SELECT create_distributed_table', 10],
      ['SELECT undistribute_table', 0],
      ['SELECT create_reference_table', 10],
      ['SELECT undistribute_table', 0],
      ['SELECT create_distributed_table', 10],
    ]);

    // A partitioned table: the copy fires each partition's own triggers and its copy of the parent's.
    await db.query(`CREATE TABLE fire_p (id int, k int, v int NOT NULL DEFAULT 0, PRIMARY KEY (id, k)) PARTITION BY RANGE (k);
      CREATE TABLE fire_p1 PARTITION OF fire_p FOR VALUES FROM (0) TO (10);
      INSERT INTO fire_p SELECT g, g % 10 FROM generate_series(1, 10) g;
      CREATE TRIGGER fire_own BEFORE INSERT ON fire_p1 FOR EACH ROW EXECUTE FUNCTION fire_add()`);
    // A partition's trigger alone is refused like the table's own.
    expect(await run(db.url, ["SELECT create_distributed_table('fire_p', 'id', shard_count => 2)"])).toBe(
      'cannot distribute relation "fire_p1" because it has triggers',
    );
    await db.query('CREATE TRIGGER fire_parent BEFORE INSERT ON fire_p FOR EACH ROW EXECUTE FUNCTION fire_add()');
    expect(
      await run(db.url, [unsafe, "SELECT create_distributed_table('fire_p', 'id', shard_count => 2)"]),
    ).toBeUndefined();
    expect(await db.query('SELECT sum(v)::int AS s FROM fire_p')).toEqual([{ s: 20 }]);
    // Its copy of the parent's trigger cannot be changed on the partition alone any more (the
    // shard's copy is named after the parent's shard); through the parent it can.
    expect(await run(db.url, [unsafe, 'ALTER TABLE fire_p1 DISABLE TRIGGER fire_parent'])).toMatch(
      /^trigger "fire_parent_(\d+)" for table "fire_p1_\1" does not exist$/,
    );
    expect(await run(db.url, [unsafe, 'ALTER TABLE fire_p DISABLE TRIGGER fire_parent'])).toBeUndefined();

    // Partitions of partitions are not distributed at all.
    await db.query(`CREATE TABLE fire_m (id int, k int, PRIMARY KEY (id, k)) PARTITION BY RANGE (k);
      CREATE TABLE fire_m1 PARTITION OF fire_m FOR VALUES FROM (0) TO (10) PARTITION BY RANGE (k)`);
    expect(await run(db.url, ["SELECT create_distributed_table('fire_m', 'id')"])).toBe(
      'distributing multi-level partitioned tables is not supported',
    );
  });

  it("pg_cancel_backend of an untyped argument is ambiguous (Citus adds pg_cancel_backend(global_pid bigint)); a global pid is the node's id × 10^10 + the backend's pid, and cancels that node's backend", async () => {
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    try {
      await expect(c.query('SELECT pg_catalog.pg_cancel_backend($1)', [1])).rejects.toThrow(
        'function pg_catalog.pg_cancel_backend(unknown) is not unique',
      );
      expect(
        (
          await c.query(`SELECT citus_backend_gpid() = (SELECT nodeid FROM pg_dist_node WHERE groupid = 0)::bigint * 10000000000 + pg_backend_pid() AS encoded,
            pg_catalog.pg_cancel_backend(0::pg_catalog.int4) AS by_pid`)
        ).rows,
      ).toEqual([{ encoded: true, by_pid: false }]);
    } finally {
      await c.end();
    }
  });

  it("a deadlock whose cycle spans two workers is ended by Citus's detector with SQLSTATE 40P01 (what apply retries)", async () => {
    await db.query(`CREATE TABLE dl (w bigint PRIMARY KEY, v int);
      SELECT create_distributed_table('dl', 'w', shard_count => 4);
      INSERT INTO dl SELECT g, 0 FROM generate_series(1, 40) g`);
    // Two keys whose shards are on different workers.
    const placed = await db.query<{ w: number; port: number }>(
      `SELECT g AS w, (SELECT nodeport FROM citus_shards s WHERE s.shardid = get_shard_id_for_distribution_column('dl', g)) AS port
       FROM generate_series(1, 40) g`,
    );
    const a = placed[0]!;
    const b = placed.find((p) => p.port !== a.port)!;
    const one = new pg.Client({ connectionString: db.url });
    const two = new pg.Client({ connectionString: db.url });
    await one.connect();
    await two.connect();
    try {
      // The coordinator's own detector never looks (10 min): only Citus's can end it.
      for (const c of [one, two]) await c.query("SET deadlock_timeout = '10min'; BEGIN");
      await one.query(`UPDATE dl SET v = 1 WHERE w = ${a.w}`);
      await two.query(`UPDATE dl SET v = 2 WHERE w = ${b.w}`);
      const waits = [
        one.query(`UPDATE dl SET v = 1 WHERE w = ${b.w}`).then(
          () => undefined,
          (e: { code?: string; message: string }) => e,
        ),
        two.query(`UPDATE dl SET v = 2 WHERE w = ${a.w}`).then(
          () => undefined,
          (e: { code?: string; message: string }) => e,
        ),
      ];
      const ended = await Promise.race(waits.map((w, i) => w.then((e) => ({ i, e }))));
      expect(ended.e).toMatchObject({ code: '40P01' });
      expect(ended.e!.message).toMatch(/distributed deadlock/);
      await [one, two][ended.i]!.query('ROLLBACK');
      expect(await waits[1 - ended.i]).toBeUndefined();
      await [one, two][1 - ended.i]!.query('ROLLBACK');
    } finally {
      await one.end();
      await two.end();
    }
  });

  it("create_distributed_table gives each shard the table's own storage parameters, not its TOAST table's; ALTER TABLE … SET reaches both", async () => {
    await db.query(`CREATE TABLE sp (w bigint PRIMARY KEY, v text);
      ALTER TABLE sp SET (fillfactor = 70, toast.autovacuum_enabled = false)`);
    await db.query("SELECT create_distributed_table('sp', 'w', shard_count => 2)");
    const shards = `SELECT pg_catalog.string_agg(c.reloptions::text || ' ' || COALESCE(t.reloptions::text, '-'), ',')
      FROM pg_class c JOIN pg_class t ON t.oid = c.reltoastrelid WHERE c.relname ~ '^sp_[0-9]+$'`;
    const onWorkers = async (): Promise<string[]> =>
      (
        await db.query<{ result: string }>(`SELECT result FROM run_command_on_workers($$${shards}$$) ORDER BY nodeport`)
      ).map((r) => r.result);
    expect(await onWorkers()).toEqual(['{fillfactor=70} -', '{fillfactor=70} -']);
    await db.query('ALTER TABLE sp SET (toast.autovacuum_enabled = false)');
    expect(await onWorkers()).toEqual([
      '{fillfactor=70} {autovacuum_enabled=false}',
      '{fillfactor=70} {autovacuum_enabled=false}',
    ]);
  });

  it('CREATE DATABASE on the coordinator stays there (citus.enable_create_database_propagation is off by default), and a database with the extension and the same workers registered distributes beside the first (plan --prove)', async () => {
    const name = `cm_fact_db_${process.pid}`;
    const onNodes = async (): Promise<number[]> => {
      const out: number[] = [];
      for (let n = 0; n < citus!.nodes.length; n++)
        out.push(
          (
            await sql<{ n: number }>(
              citus!,
              'postgres',
              `SELECT count(*)::int AS n FROM pg_database WHERE datname = '${name}'`,
              n,
            )
          )[0]!.n,
        );
      return out;
    };
    await sql(citus!, 'postgres', [
      `DROP DATABASE IF EXISTS ${name}`,
      'SHOW citus.enable_create_database_propagation',
    ]).then((rows) => expect(rows).toEqual([{ 'citus.enable_create_database_propagation': 'off' }]));
    await sql(citus!, 'postgres', `CREATE DATABASE ${name}`);
    try {
      expect(await onNodes()).toEqual([1, ...citus!.nodes.slice(1).map(() => 0)]);
      for (let n = 1; n < citus!.nodes.length; n++) {
        await sql(citus!, 'postgres', `CREATE DATABASE ${name}`, n);
        await sql(citus!, name, 'CREATE EXTENSION citus', n);
      }
      const at = (n: number) => citus!.nodes[n]!.registerAs ?? citus!.nodes[n]!;
      await sql(citus!, name, [
        'CREATE EXTENSION citus',
        `SELECT citus_set_coordinator_host('${at(0).host}', ${at(0).port})`,
        ...citus!.nodes.slice(1).map((_, i) => `SELECT citus_add_node('${at(i + 1).host}', ${at(i + 1).port})`),
        'CREATE TABLE t (k bigint PRIMARY KEY)',
        "SELECT create_distributed_table('t', 'k', shard_count => 4)",
        'INSERT INTO t SELECT generate_series(1, 10)',
      ]);
      expect(
        await sql(
          citus!,
          name,
          "SELECT count(DISTINCT nodeport)::int AS nodes FROM citus_shards WHERE table_name = 't'::regclass",
        ),
      ).toEqual([{ nodes: citus!.nodes.length - 1 }]);
    } finally {
      for (let n = 0; n < citus!.nodes.length; n++)
        await sql(citus!, 'postgres', `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`, n);
    }
    expect(await onNodes()).toEqual(citus!.nodes.map(() => 0));
  });

  it("the names Citus sends the workers are looked up along the database's search_path there: run_command_on_shards's shard of public comes unqualified, and a distributed count(*) goes without its schema", async () => {
    const db = await freshDatabase(citus!, 'fact_worker_names');
    await db.query(`CREATE TABLE t (k bigint);
      SELECT create_distributed_table('t', 'k', shard_count => 2);
      INSERT INTO t SELECT generate_series(1, 10)`);
    const names = await db.query<{ shard: string }>(
      "SELECT shard_name('t'::regclass, shardid) AS shard FROM pg_dist_shard WHERE logicalrelid = 't'::regclass",
    );
    expect(names.map((n) => /^t_\d+$/.test(n.shard))).toEqual([true, true]);
    // What a database's owner may do on each worker: put public first, and a count() there.
    for (let n = 1; n < citus!.nodes.length; n++)
      await sql(
        citus!,
        db.name,
        [
          'SET citus.enable_ddl_propagation TO off',
          `ALTER DATABASE ${db.name} SET search_path = public, pg_catalog`,
          "CREATE FUNCTION public.count() RETURNS bigint LANGUAGE sql AS 'SELECT 42::bigint'",
        ],
        n,
      );
    // Each shard's command runs in a session that searches the database's search_path, and %L is its unqualified name.
    const seen = await db.query<{ result: string }>(
      "SELECT result FROM run_command_on_shards('t', $$SELECT pg_catalog.current_setting('search_path') || ' ' || %L$$)",
    );
    expect(seen.map((r) => /^public, pg_catalog t_\d+$/.test(r.result))).toEqual([true, true]);
    await expect(db.query('SELECT count(*) FROM t')).rejects.toThrow(
      /count\(\*\) specified, but count is not an aggregate function/,
    );
  });
});
