BEGIN;
SET LOCAL citus.multi_shard_modify_mode TO 'sequential';
SET LOCAL citus.shard_replication_factor TO 1;
SET LOCAL standard_conforming_strings TO on;

-- [1] create index on public.events (tenant_id, created_at)
CREATE INDEX ON public.events USING btree (tenant_id, created_at);

-- [2] distribute public.tenants by tenant_id: anchor of colocation group "tenant", 4 shards; copies its rows into the shards (hazards: copies_data)
SELECT create_distributed_table('public.tenants', 'tenant_id', colocate_with => 'none', shard_count => 4);

-- [3] distribute public.events by no_such_col, colocated with public.tenants (group "tenant"); copies its rows into the shards (hazards: copies_data)
SELECT create_distributed_table('public.events', 'no_such_col', colocate_with => 'public.tenants');

-- [4] remove the coordinator's local copy of public.tenants's rows (they are in the shards now)
SELECT truncate_local_data_after_distributing_table('public.tenants');

-- [5] remove the coordinator's local copy of public.events's rows (they are in the shards now)
SELECT truncate_local_data_after_distributing_table('public.events');

COMMIT;

-- problem: public.events: distributed_by: has no column "no_such_col" in the cluster (its columns: tenant_id, id, payload)
-- problem: public.events: indexes[0]: has no column "created_at" in the cluster (its columns: tenant_id, id, payload)
