// Flag values parsed in one place, with one rule each, as commander argParsers: a bad value throws
// commander's InvalidArgumentError, so the CLI exits 64 naming the flag and the value.
import { InvalidArgumentError } from 'commander';
import { parseDuration } from '../util/duration.js';

/** A duration flag (500ms, 30s, 5m, 1h) in milliseconds. */
export function durationFlag(value: string): number {
  const ms = parseDuration(value);
  if (ms === undefined)
    throw new InvalidArgumentError(
      'not a duration: expected a number followed by ms, s, m or h, such as 500ms, 30s, 5m or 1h',
    );
  return ms;
}

/** A duration flag where a bare 0 means "none" (timeouts). */
export function zeroOrDurationFlag(value: string): number {
  return value.trim() === '0' ? 0 : durationFlag(value);
}

/** A count: a whole number of 1 or more (clients, transactions). */
export function countFlag(value: string): number {
  const n = /^\d+$/.test(value.trim()) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < 1)
    throw new InvalidArgumentError('not a count: expected a whole number of 1 or more');
  return n;
}

/** A whole number of 0 or more (seeds, retries). */
export function nonNegativeIntFlag(what: string): (value: string) => number {
  return (value) => {
    const n = /^\d+$/.test(value.trim()) ? Number(value) : NaN;
    if (!Number.isSafeInteger(n)) throw new InvalidArgumentError(`not ${what}: expected a whole number of 0 or more`);
    return n;
  };
}

/** A whole number from lo to hi (retries). */
export function boundedIntFlag(lo: number, hi: number): (value: string) => number {
  return (value) => {
    const n = /^\d+$/.test(value.trim()) ? Number(value) : NaN;
    if (!Number.isSafeInteger(n) || n < lo || n > hi)
      throw new InvalidArgumentError(`expected a whole number from ${lo} to ${hi}`);
    return n;
  };
}

/** A plain number of 0 or more (TPS, milliseconds). */
export function numberFlag(value: string): number {
  const n = value.trim() === '' ? NaN : Number(value);
  if (!Number.isFinite(n) || n < 0) throw new InvalidArgumentError('not a number: expected a number of 0 or more');
  return n;
}

/**
 * A rate as a fraction from 0 to 1: "10%" and "0.1" both mean ten percent. A bare number above 1
 * is refused rather than guessed at (is 2 two percent or 200 %?).
 */
export function rateFlag(value: string): number {
  const t = value.trim();
  const pct = t.endsWith('%');
  const body = pct ? t.slice(0, -1) : t;
  const n = /^\d+(\.\d+)?$/.test(body) ? Number(body) : NaN;
  if (!Number.isFinite(n))
    throw new InvalidArgumentError('not a rate: expected a percentage such as 10% or a fraction such as 0.1');
  if (pct && n > 100) throw new InvalidArgumentError('not a rate: a percentage is from 0% to 100%');
  if (!pct && n > 1)
    throw new InvalidArgumentError(
      `not a rate: a bare number is a fraction from 0 to 1 (0.1 is 10%); write ${body}% for ${body} percent`,
    );
  return pct ? n / 100 : n;
}
