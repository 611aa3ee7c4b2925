// Where in a file a statement or an error is: line and column of a byte offset (the parser reports byte offsets).

/** 1-based line:col of a byte offset in UTF-8 text (the parser reports byte offsets). */
export function lineCol(text: string, byteOffset: number): string {
  const before = Buffer.from(text, 'utf8').subarray(0, byteOffset).toString('utf8').split('\n');
  return `${before.length}:${before[before.length - 1]!.length + 1}`;
}

/**
 * lineCol for many offsets of one text: it walks forward from the last offset asked (restarting
 * only for an earlier one), so locating every statement of a file in order reads it once — one
 * lineCol per statement read the file from its start each time, quadratic in the statement count.
 * Columns count UTF-16 units, as lineCol's do.
 */
export function byteLocator(bytes: Uint8Array): (byteOffset: number) => string {
  let at = 0;
  let line = 1;
  let col = 1;
  return (byteOffset) => {
    const end = Math.min(byteOffset, bytes.length);
    if (end < at) [at, line, col] = [0, 1, 1];
    for (; at < end; at++) {
      const b = bytes[at]!;
      if (b === 0x0a) {
        line++;
        col = 1;
      } else if ((b & 0xc0) !== 0x80) col += b >= 0xf0 ? 2 : 1; // a lead byte; 4-byte sequences are surrogate pairs
    }
    return `${line}:${col}`;
  };
}
