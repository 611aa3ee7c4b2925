/** "1 step", "2 steps": a count with its noun, plural when it is not 1. */
export function plural(n: number, noun: string, pluralNoun = `${noun}s`): string {
  return `${n} ${n === 1 ? noun : pluralNoun}`;
}
