// Numbers in a manifest, read exactly by its YAML reading (yaml-read.ts): an integer
// JavaScript holds exactly is a number, a larger one a bigint (a partition bound, a
// default, a sequence's bounds up to ±9223372036854775807 are kept as written); a float is a
// number when that number is the decimal written, else an InexactNumber, which no part of the
// schema takes: a located problem says to write it as a string. JavaScript's reading rounded
// 9007199254740993 to ...992 without a word, and a partition bound moved a row.

/** A float whose decimal JavaScript cannot hold (`0.30000000000000001`, `1e400`): refused where it stands. */
export class InexactNumber {
  constructor(readonly text: string) {}
  toJSON(): string {
    return this.text;
  }
}

const OCT = /^0o[0-7]+$/;
const HEX = /^0x[0-9a-fA-F]+$/;

/** A YAML 1.2 core integer (decimal, 0o octal, 0x hex): a number when safe, else a bigint. */
export function intValue(text: string): number | bigint {
  const big = OCT.test(text) || HEX.test(text) ? BigInt(text) : BigInt(text.replace(/^\+/, ''));
  const n = Number(big);
  return Number.isSafeInteger(n) ? n : big;
}

/** A decimal text as sign, digits without leading or trailing zeros, and exponent (0 has no digits). */
function decimal(text: string): string {
  const m = /^([-+]?)(\d*)(?:\.(\d*))?(?:[eE]([-+]?\d+))?$/.exec(text);
  if (!m) return text;
  let digits = `${m[2] ?? ''}${m[3] ?? ''}`.replace(/^0+/, '');
  let exp = BigInt(m[4] ?? 0) - BigInt((m[3] ?? '').length);
  if (digits === '') return '0';
  const trailing = /0*$/.exec(digits)![0].length;
  digits = digits.slice(0, digits.length - trailing);
  exp += BigInt(trailing);
  return `${m[1] === '-' ? '-' : ''}${digits}e${exp}`;
}

/** A YAML 1.2 core float: its number, or InexactNumber when the number is not the decimal written. */
export function floatValue(text: string, n: number): number | InexactNumber {
  if (Number.isNaN(n)) return n; // .nan, written as such
  if (!Number.isFinite(n)) return /inf/i.test(text) ? n : new InexactNumber(text);
  return decimal(text) === decimal(String(n)) ? n : new InexactNumber(text);
}

/** An integer (decimal text) as a manifest writes it: a number, or a bigint beyond 2^53 (written exactly). */
export function yamlInt(text: string): number | bigint {
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : BigInt(text);
}
