CREATE SCHEMA app;
DO $$BEGIN CREATE ROLE cm_reader; EXCEPTION WHEN duplicate_object THEN NULL; END$$;
CREATE TABLE app.m (d date NOT NULL, id bigint NOT NULL, v text) PARTITION BY RANGE (d);
CREATE TABLE app.m1 PARTITION OF app.m FOR VALUES FROM ('2020-01-01') TO ('2021-01-01');
CREATE TABLE app.m2 PARTITION OF app.m FOR VALUES FROM ('2021-01-01') TO ('2022-01-01');
-- what one partition holds of its own, beside what it gets from its parent
CREATE INDEX m1_v ON app.m1 (v);
ALTER TABLE app.m1 ADD CONSTRAINT m1_id_positive CHECK (id > 0);
CREATE FUNCTION app.touch() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$;
CREATE TRIGGER m2_touch BEFORE INSERT ON app.m2 FOR EACH ROW EXECUTE FUNCTION app.touch();
COMMENT ON TABLE app.m2 IS 'the year 2021';
GRANT SELECT ON app.m2 TO cm_reader;
-- the parent's own, copied to each partition
ALTER TABLE app.m ADD CONSTRAINT m_id_small CHECK (id < 1000000);
