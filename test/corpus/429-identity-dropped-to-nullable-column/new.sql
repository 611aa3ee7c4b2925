-- DROP IDENTITY runs before DROP NOT NULL (PostgreSQL refuses DROP NOT NULL on an identity column).
CREATE TABLE voltages (id bigint PRIMARY KEY, volt integer);
