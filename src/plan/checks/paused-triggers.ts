// The statements that pause a table's triggers while Citus copies its rows into the shards, and
// restore each after (checks/unsafe-triggers.ts says which steps). They read the catalog when they run,
// not the plan's read: every user trigger of the table and of its partitions (pg_partition_tree:
// a partition in another schema too), each restored to its exact state (ENABLE, ENABLE ALWAYS,
// ENABLE REPLICA; a DISABLEd one is left alone). The states go from one statement to the next in
// a transaction-local setting. The DO bodies are constants (the table's name reaches them
// through a setting, quoted by quote.ts), so no name can end their dollar quotes.
//
// - Internal triggers are left enabled: the foreign keys' (the copy's rows already satisfied them,
//   and a shard's key checks the rows put in it) and Citus's own truncate trigger.
// - A partition's copy of its parent's trigger (tgparentid) follows the parent's ALTER … TRIGGER,
//   which PostgreSQL 15 recurses to it; Citus cannot change it alone once the partition is
//   distributed (the shard's copy is named after the parent's shard: docs/citus-facts.md). One
//   whose state differs from its parent's could not be restored: the pause refuses it, and the
//   transaction rolls back.
import { quoteRegclass, type QualifiedName } from '../../sql/quote.js';

/** The setting the pause reads its table from, and the one it leaves the paused triggers in. */
const TABLE_SETTING = 'citus_migrate.pause_triggers_of';
const PAUSED_SETTING = 'citus_migrate.paused_triggers';

/** pg_trigger.tgenabled (as text) as ALTER TABLE's words. */
const stateOf = (e: string): string =>
  `CASE WHEN ${e} OPERATOR(pg_catalog.=) 'O' THEN 'ENABLE' WHEN ${e} OPERATOR(pg_catalog.=) 'A' THEN 'ENABLE ALWAYS'
      WHEN ${e} OPERATOR(pg_catalog.=) 'R' THEN 'ENABLE REPLICA' ELSE 'DISABLE' END`;

const PAUSE = `DO $cm$
DECLARE
  t pg_catalog.regclass := pg_catalog.current_setting('${TABLE_SETTING}')::pg_catalog.regclass;
  r record;
  paused pg_catalog.jsonb := '[]';
BEGIN
  FOR r IN
    SELECT n.nspname, c.relname, tg.tgname, tg.tgenabled::pg_catalog.text AS state, tg.tgparentid,
      pn.nspname AS parent_schema, pc.relname AS parent_table, p.tgenabled::pg_catalog.text AS parent_state
    FROM pg_catalog.pg_trigger tg
    JOIN pg_catalog.pg_class c ON c.oid OPERATOR(pg_catalog.=) tg.tgrelid
    JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) c.relnamespace
    LEFT JOIN pg_catalog.pg_trigger p ON p.oid OPERATOR(pg_catalog.=) tg.tgparentid
    LEFT JOIN pg_catalog.pg_class pc ON pc.oid OPERATOR(pg_catalog.=) p.tgrelid
    LEFT JOIN pg_catalog.pg_namespace pn ON pn.oid OPERATOR(pg_catalog.=) pc.relnamespace
    WHERE NOT tg.tgisinternal
      AND tg.tgrelid OPERATOR(pg_catalog.=) ANY (ARRAY(SELECT t UNION SELECT relid FROM pg_catalog.pg_partition_tree(t))::pg_catalog.oid[])
    ORDER BY n.nspname, c.relname, tg.tgname
  LOOP
    IF r.tgparentid OPERATOR(pg_catalog.<>) 0 THEN
      IF r.state OPERATOR(pg_catalog.<>) r.parent_state THEN
        RAISE EXCEPTION 'trigger % of %.% is % on %.%, its partition, but % on the table: Citus cannot change a partition''s copy of a trigger once it is distributed, so that state could not be restored after the copy',
          pg_catalog.quote_ident(r.tgname), pg_catalog.quote_ident(r.parent_schema), pg_catalog.quote_ident(r.parent_table), ${stateOf('r.state')},
          pg_catalog.quote_ident(r.nspname), pg_catalog.quote_ident(r.relname), ${stateOf('r.parent_state')}
          USING HINT = 'give both the same state (ALTER TABLE … ENABLE / DISABLE TRIGGER) and plan again';
      END IF;
    ELSIF r.state OPERATOR(pg_catalog.<>) 'D' THEN
      EXECUTE pg_catalog.format('ALTER TABLE %I.%I DISABLE TRIGGER %I', r.nspname, r.relname, r.tgname);
      paused := paused OPERATOR(pg_catalog.||) pg_catalog.jsonb_build_array(pg_catalog.jsonb_build_array(r.nspname, r.relname, r.tgname, r.state));
    END IF;
  END LOOP;
  PERFORM pg_catalog.set_config('${PAUSED_SETTING}', paused::pg_catalog.text, true);
END
$cm$`;

const RESUME = `DO $cm$
DECLARE
  r record;
BEGIN
  FOR r IN
    SELECT x OPERATOR(pg_catalog.->>) 0 AS nspname, x OPERATOR(pg_catalog.->>) 1 AS relname,
      x OPERATOR(pg_catalog.->>) 2 AS tgname, x OPERATOR(pg_catalog.->>) 3 AS state
    FROM pg_catalog.jsonb_array_elements(pg_catalog.current_setting('${PAUSED_SETTING}')::pg_catalog.jsonb) AS x
  LOOP
    EXECUTE pg_catalog.format('ALTER TABLE %I.%I %s TRIGGER %I', r.nspname, r.relname, ${stateOf('r.state')}, r.tgname);
  END LOOP;
END
$cm$`;

/** The statements before the copy: the table's name into the setting, then the pause. */
export function pauseTriggersSql(table: QualifiedName): string[] {
  return [`SELECT pg_catalog.set_config('${TABLE_SETTING}', ${quoteRegclass(table)}, true)`, PAUSE];
}

/** The statement after the copy: each paused trigger back to its state. */
export const RESUME_TRIGGERS_SQL: string = RESUME;
