-- PostgreSQL's regression setup: a hash operator class of its own (its support function becomes a
-- loose member of the implicit family), an index and a partitioned table that use it, comments.
CREATE FUNCTION public.hash_len(value text, seed int8) RETURNS int8 LANGUAGE sql STRICT IMMUTABLE PARALLEL SAFE
  AS $$ SELECT length(coalesce(value, ''))::int8 $$;
CREATE OPERATOR CLASS public.len_ops FOR TYPE text USING hash AS OPERATOR 1 =, FUNCTION 2 public.hash_len(text, int8);
COMMENT ON OPERATOR CLASS public.len_ops USING hash IS 'hashes by length';
COMMENT ON OPERATOR FAMILY public.len_ops USING hash IS 'its family';
CREATE TABLE public.words (id bigint PRIMARY KEY, w text);
CREATE INDEX words_w ON public.words USING hash (w public.len_ops);
