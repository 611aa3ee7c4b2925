CREATE SCHEMA app;
CREATE SUBSCRIPTION cm_sub CONNECTION 'dbname=nowhere' PUBLICATION cm_pub WITH (connect = false, slot_name = NONE, enabled = false);
