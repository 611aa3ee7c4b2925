CREATE ACCESS METHOD heap2 TYPE TABLE HANDLER heap_tableam_handler;
CREATE TABLE public.parted (a integer) PARTITION BY LIST (a);
