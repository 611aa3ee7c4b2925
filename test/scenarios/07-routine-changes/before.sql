CREATE TABLE w (w_id integer PRIMARY KEY);
SELECT create_distributed_table('w', 'w_id', colocate_with => 'none', shard_count => 4);
CREATE FUNCTION body_changes(p integer) RETURNS integer LANGUAGE plpgsql AS $$ BEGIN RETURN p; END $$;
CREATE FUNCTION result_changes(p integer) RETURNS integer LANGUAGE plpgsql AS $$ BEGIN RETURN p; END $$;
CREATE FUNCTION moves(p integer, q integer) RETURNS integer LANGUAGE plpgsql AS $$ BEGIN RETURN p; END $$;
SELECT create_distributed_function('result_changes(integer)', '$1', colocate_with => 'w');
SELECT create_distributed_function('moves(integer, integer)', '$1', colocate_with => 'w', force_delegation => false);
CREATE FUNCTION same(p integer) RETURNS integer LANGUAGE plpgsql STABLE AS $$ BEGIN RETURN p + 1; END $$;
SELECT create_distributed_function('same(integer)', '$1', colocate_with => 'w', force_delegation => false);
