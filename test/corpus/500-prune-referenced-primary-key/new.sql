-- prune drops the keys the manifest does not declare: the foreign key first, then the primary
-- key it referenced (PostgreSQL refuses it while the foreign key depends on its index), then
-- DROP NOT NULL of the former key column (refused while it is in a primary key).
CREATE TABLE account (id bigint, email text, name text NOT NULL);
CREATE TABLE note (id bigint PRIMARY KEY, account_id bigint, body text);
