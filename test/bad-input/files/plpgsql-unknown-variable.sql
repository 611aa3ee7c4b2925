CREATE FUNCTION total(p_w_id integer) RETURNS numeric
LANGUAGE plpgsql AS '
DECLARE
  s numeric := 0;
BEGIN
  -- it''s a typo: t instead of s
  t := s + 1;
  RETURN s;
END';
