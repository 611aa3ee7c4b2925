-- no steps

-- problem: public.ghost: is declared without columns (created elsewhere) but does not exist
