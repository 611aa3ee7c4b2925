CREATE TABLE events (tenant_id bigint NOT NULL, id bigint NOT NULL, payload text);
CREATE TABLE tenants (tenant_id bigint PRIMARY KEY);
