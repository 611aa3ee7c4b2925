-- no changes

-- unmanaged: table public.extra
