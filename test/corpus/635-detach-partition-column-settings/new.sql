-- A partition detached to a table of its own carries its own statistics targets and attribute
-- options (the table's, set with ONLY, never reached it), and the next plan is empty.
CREATE TABLE m (id int NOT NULL, at date NOT NULL, note text) PARTITION BY RANGE (at);
ALTER TABLE ONLY m ALTER COLUMN note SET STATISTICS 300;
CREATE TABLE m_2020 PARTITION OF m FOR VALUES FROM ('2020-01-01') TO ('2021-01-01');
CREATE TABLE m_2019 (id int NOT NULL, at date NOT NULL, note text);
ALTER TABLE m_2019 ALTER COLUMN id SET STATISTICS 60;
ALTER TABLE m_2019 ALTER COLUMN at SET (n_distinct = 365);
