-- no steps

-- unmanaged (left alone): table public.extra
