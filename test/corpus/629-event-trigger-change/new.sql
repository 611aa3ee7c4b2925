-- An event trigger enabled for replicas only and another dropped; a wrapper's options changed.
CREATE FUNCTION on_ddl() RETURNS event_trigger LANGUAGE plpgsql AS $$BEGIN RAISE NOTICE 'ddl %', tg_tag; END$$;
CREATE EVENT TRIGGER noisy ON ddl_command_end EXECUTE FUNCTION on_ddl();
ALTER EVENT TRIGGER noisy ENABLE REPLICA;
CREATE FOREIGN DATA WRAPPER w1 OPTIONS (debug 'false');
