BEGIN;
SET LOCAL citus.multi_shard_modify_mode TO 'sequential';
SET LOCAL citus.shard_replication_factor TO 1;
SET LOCAL standard_conforming_strings TO on;

-- [1] change public.t.name from character varying(10) to character varying(40) (hazards: rewrites_table)
ALTER TABLE public.t ALTER COLUMN name TYPE character varying(40);

-- [2] set NOT NULL on public.t.name
ALTER TABLE public.t ALTER COLUMN name SET NOT NULL;

-- [3] set default of public.t.note to 'y'
ALTER TABLE public.t ALTER COLUMN note SET DEFAULT 'y';

-- [4] add column added numeric(8,2) to public.t
ALTER TABLE public.t ADD COLUMN added numeric(8,2) DEFAULT 0;

COMMIT;

-- unmanaged (left alone): column public.t.old
-- unmanaged (left alone): index t_old_idx on public.t (old)
