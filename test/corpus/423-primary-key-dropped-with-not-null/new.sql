-- The primary key goes and its column becomes nullable: with prune (as the corpus runs) the key
-- is dropped first, then DROP NOT NULL (refused while the column is in a primary key). Without
-- prune the key stays and the DROP NOT NULL is a plan problem, nullable_key_column
-- (test/unit/prune-keys.test.ts).
CREATE SCHEMA app;
CREATE TABLE app.t (id bigint, a integer NOT NULL, b text);
