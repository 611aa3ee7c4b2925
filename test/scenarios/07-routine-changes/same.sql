create or replace function public.same(p int) returns int stable language plpgsql as $$ BEGIN RETURN p + 1; END $$;
