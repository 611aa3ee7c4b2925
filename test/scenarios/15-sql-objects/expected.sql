BEGIN;
SET LOCAL citus.multi_shard_modify_mode TO 'sequential';
SET LOCAL citus.shard_replication_factor TO 1;
SET LOCAL standard_conforming_strings TO on;

-- [1] drop view public.top_scores (to create it again)
DROP VIEW public.top_scores;

-- [2] drop view public.scores (to create it again)
DROP VIEW public.scores;

-- [3] add value ok enum public.mood
ALTER TYPE public.mood ADD VALUE 'ok' BEFORE 'happy';

-- [4] change public.t.score from integer to bigint (hazards: rewrites_table)
ALTER TABLE public.t ALTER COLUMN score TYPE bigint;

-- [5] change comment on table public.t
SET LOCAL search_path TO public;
COMMENT ON TABLE t IS 'scores by id';

-- [6] create index public.t_score
SET LOCAL search_path TO public;
CREATE INDEX t_score ON t (score DESC) WHERE score > 0;

-- [7] create again view public.scores
SET LOCAL search_path TO public;
CREATE VIEW scores AS SELECT id, score FROM t;

-- [8] create again view public.top_scores
SET LOCAL search_path TO public;
CREATE VIEW top_scores AS SELECT id FROM scores WHERE score > 10;

COMMIT;
