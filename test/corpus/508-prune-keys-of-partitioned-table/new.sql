-- Keys of a partitioned table: DROP CONSTRAINT on the parent drops the partitions' copies too.
CREATE TABLE region (id int PRIMARY KEY);
CREATE TABLE events (id int NOT NULL, region_id int, at date NOT NULL) PARTITION BY RANGE (at);
CREATE TABLE events_2026 PARTITION OF events FOR VALUES FROM ('2026-01-01') TO ('2027-01-01');
