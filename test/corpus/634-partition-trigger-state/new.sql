-- PostgreSQL's triggers.sql: a partition's clone of its table's trigger disabled, or enabled
-- always, apart from its table's (pg_dump: ALTER TABLE partition DISABLE TRIGGER t): managed
-- (dropped without a word before 2026-11-30); one taken back to its table's state.
CREATE TABLE parted (a int) PARTITION BY LIST (a);
CREATE TABLE parted_1 PARTITION OF parted FOR VALUES IN (1);
CREATE TABLE parted_2 PARTITION OF parted FOR VALUES IN (2);
CREATE TABLE parted_3 PARTITION OF parted FOR VALUES IN (3);
CREATE FUNCTION trigger_nothing() RETURNS trigger LANGUAGE plpgsql AS $$BEGIN RETURN NULL; END$$;
CREATE TRIGGER aft_row AFTER INSERT ON parted FOR EACH ROW EXECUTE FUNCTION trigger_nothing();
ALTER TABLE parted_1 DISABLE TRIGGER aft_row;
ALTER TABLE parted_3 ENABLE REPLICA TRIGGER aft_row;
