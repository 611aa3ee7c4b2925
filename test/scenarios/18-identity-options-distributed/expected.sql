-- no steps

-- problem: public.events.id: changes its identity sequence options: Citus does not support this on a distributed or reference table (undistribute it first, or add a new column)
-- problem: public.kinds.id: changes its identity sequence options: Citus does not support this on a distributed or reference table (undistribute it first, or add a new column)
