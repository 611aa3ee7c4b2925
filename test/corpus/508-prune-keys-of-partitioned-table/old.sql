CREATE TABLE region (id int PRIMARY KEY);
CREATE TABLE events (id int, region_id int REFERENCES region (id), at date, PRIMARY KEY (id, at), UNIQUE (region_id, at)) PARTITION BY RANGE (at);
CREATE TABLE events_2026 PARTITION OF events FOR VALUES FROM ('2026-01-01') TO ('2027-01-01');
