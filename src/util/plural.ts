// Counts in messages: "1 routine", "2 routines", never "1 routines" or "2 routine(s)".

/** "1 step", "2 steps": a count with its noun, plural when it is not 1. */
export function plural(n: number, noun: string, pluralNoun = `${noun}s`): string {
  return `${n} ${n === 1 ? noun : pluralNoun}`;
}
