// The hash Citus puts a distribution value at (worker_hash): the type's own hash function,
// PostgreSQL's hash_uint32 (Bob Jenkins's lookup3 `final` mix) of the value for the integer types,
// as a signed 32-bit number, which shard ranges (shardminvalue..shardmaxvalue) hold. Pure.

const rot = (x: number, k: number): number => ((x << k) | (x >>> (32 - k))) >>> 0;

/** PostgreSQL's hash_uint32 (common/hashfn.c). */
function hashUint32(k: number): number {
  let a = (0x9e3779b9 + 4 + 3923095) >>> 0;
  let b = a;
  let c = a;
  a = (a + (k >>> 0)) >>> 0;
  // final(a, b, c)
  c = ((c ^ b) - rot(b, 14)) >>> 0;
  a = ((a ^ c) - rot(c, 11)) >>> 0;
  b = ((b ^ a) - rot(a, 25)) >>> 0;
  c = ((c ^ b) - rot(b, 16)) >>> 0;
  a = ((a ^ c) - rot(c, 4)) >>> 0;
  b = ((b ^ a) - rot(a, 14)) >>> 0;
  c = ((c ^ b) - rot(b, 24)) >>> 0;
  return c | 0;
}

/** The distribution column types whose hash is computed here. */
export const HASHED_TYPES: ReadonlySet<string> = new Set(['smallint', 'integer', 'bigint']);

/**
 * worker_hash(value::type) for an integer distribution value (decimal text), or undefined for a
 * type not computed here or a value outside the type's range.
 */
export function workerHash(value: string, type: string): number | undefined {
  if (!HASHED_TYPES.has(type) || !/^-?[0-9]+$/.test(value)) return undefined;
  const v = BigInt(value);
  const bits = type === 'smallint' ? 16n : type === 'integer' ? 32n : 64n;
  if (v < -(1n << (bits - 1n)) || v >= 1n << (bits - 1n)) return undefined;
  if (type !== 'bigint') return hashUint32(Number(v) >>> 0);
  // hashint8: the low half, XORed with the high half (its complement for a negative value).
  const lo = Number(BigInt.asUintN(32, v));
  const hi = Number(BigInt.asUintN(32, v >> 32n));
  return hashUint32((lo ^ (v >= 0n ? hi : ~hi)) >>> 0);
}
