-- Résumé: a PL/pgSQL body with a typo on line 7 (non-ASCII text before it, on purpose).
CREATE OR REPLACE PROCEDURE payment(p_w_id integer, p_amount numeric)
LANGUAGE plpgsql AS $body$
DECLARE
  note text := 'é';
BEGIN
  UPDAT warehouse SET w_ytd = w_ytd + p_amount WHERE w_id = p_w_id;
END
$body$;
