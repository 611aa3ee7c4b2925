// Counts in messages: "1 routine", "2 routines", never "1 routines".

/** `n` followed by the singular or plural noun, as n requires. */
export function countOf(n: number, singular: string, plural = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : plural}`;
}
