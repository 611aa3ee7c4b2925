// A promise opened from outside: what waits on `opened` goes on once `open()` is called (again:
// nothing more). For "start loading once the catalog query is on its way" and its like.

/** A latch: `opened` settles when `open` is first called. */
export interface Latch {
  readonly opened: Promise<void>;
  open(): void;
}

export function latch(): Latch {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}
