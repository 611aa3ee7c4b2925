-- A table whose default draws from another table's serial sequence (LedgerSMB's asset_note and
-- note_id_seq): created after the table whose CREATE makes the sequence.
CREATE TABLE b_note (id serial PRIMARY KEY, body text);
CREATE TABLE a_asset_note (id integer NOT NULL DEFAULT nextval('b_note_id_seq'::regclass) PRIMARY KEY, body text);
