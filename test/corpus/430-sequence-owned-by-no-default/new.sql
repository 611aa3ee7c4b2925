-- A sequence owned by a column that does not draw from it (IcingaDB's *_id_seq): the owner is
-- kept (dropping the table drops the sequence), but the column has no nextval default.
CREATE SCHEMA app;
CREATE TABLE app.history (id bigint PRIMARY KEY, body text);
CREATE SEQUENCE app.history_id_seq;
ALTER SEQUENCE app.history_id_seq OWNED BY app.history.id;
