-- Layouts Citus builds that the manifest either carries (a routine colocated with a reference
-- table, a routine Citus does not know) or names as not managed (range distribution, two
-- placements per shard, an isolated tenant's uneven shard boundaries).
CREATE TABLE ref (id int PRIMARY KEY);
SELECT create_reference_table('ref');
CREATE FUNCTION rf(x int) RETURNS bigint LANGUAGE sql AS $$ SELECT count(*) FROM ref WHERE id = x $$;
CREATE TABLE r (id int, v text);
SELECT create_distributed_table('r', 'id', 'range');
SET citus.shard_replication_factor = 2;
CREATE TABLE rep (id int PRIMARY KEY, v text);
SELECT create_distributed_table('rep', 'id', shard_count => 4, colocate_with => 'none');
RESET citus.shard_replication_factor;
CREATE TABLE iso (id int PRIMARY KEY, v text);
SELECT create_distributed_table('iso', 'id', shard_count => 4, colocate_with => 'none');
SELECT isolate_tenant_to_new_shard('iso', 5, shard_transfer_mode => 'block_writes');
