CREATE SCHEMA app;
CREATE TEXT SEARCH DICTIONARY app.english_nostop (TEMPLATE = snowball, language = 'english');
COMMENT ON TEXT SEARCH DICTIONARY app.english_nostop IS 'english, stop words kept';
CREATE TEXT SEARCH CONFIGURATION app.myconf (COPY = english);
ALTER TEXT SEARCH CONFIGURATION app.myconf ALTER MAPPING FOR asciiword, word WITH app.english_nostop, simple;
COMMENT ON TEXT SEARCH CONFIGURATION app.myconf IS 'mine';
CREATE TABLE app.doc (id bigint PRIMARY KEY, body text);
CREATE TABLE app.doc2 (id bigint PRIMARY KEY, body text, tsv tsvector GENERATED ALWAYS AS (to_tsvector('app.myconf', body)) STORED);
CREATE INDEX doc_fts ON app.doc USING gin (to_tsvector('app.myconf'::regconfig, body));
