CREATE SCHEMA "Tenant Data";
CREATE TABLE "Tenant Data"."Order Lines" ("W Id" bigint NOT NULL, "select" text DEFAULT 'it''s', PRIMARY KEY ("W Id"));
SELECT create_distributed_table('"Tenant Data"."Order Lines"', 'W Id', colocate_with => 'none', shard_count => 4);
CREATE TABLE "Tenant Data".other ("W Id" bigint);
SELECT create_distributed_table('"Tenant Data".other', 'W Id', colocate_with => '"Tenant Data"."Order Lines"');
CREATE TABLE extra (x int);
