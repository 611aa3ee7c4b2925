CREATE VIEW latin1_v AS
  SELECT 1 AS café;
