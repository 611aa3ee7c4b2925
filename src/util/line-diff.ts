// A line diff for reviewers: what a changed routine body or view definition changes, as `-` and
// `+` lines with a line of context, instead of "create again". Longest common subsequence over
// lines; bodies too long to compare that way (the table is lines × lines) are only said to differ.

const MAX_LINES = 2000;

/**
 * The changed lines of `before` → `after` as `- old` / `+ new` with one line of context (`  same`),
 * hunks separated by `…`; at most `max` lines, then `… and N more lines`. Empty when equal.
 */
export function lineDiff(before: string, after: string, max = 40): string[] {
  if (before === after) return [];
  const a = before.split('\n');
  const b = after.split('\n');
  if (a.length > MAX_LINES || b.length > MAX_LINES)
    return [`(${a.length} lines → ${b.length} lines: too long to compare line by line)`];
  // lcs[i][j]: length of the longest common subsequence of a[i..] and b[j..].
  const lcs = Array.from({ length: a.length + 1 }, () => new Uint16Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  const ops: { op: ' ' | '-' | '+'; line: string }[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      ops.push({ op: ' ', line: a[i]! });
      i++;
      j++;
    } else if (i < a.length && (j === b.length || lcs[i + 1]![j]! >= lcs[i]![j + 1]!))
      ops.push({ op: '-', line: a[i++]! });
    else ops.push({ op: '+', line: b[j++]! });
  }
  // Keep changes and one line of context around each.
  const keep = ops.map((o, k) => o.op !== ' ' || ops[k - 1]?.op !== ' ' || ops[k + 1]?.op !== ' ');
  const out: string[] = [];
  for (let k = 0; k < ops.length; k++) {
    if (!keep[k]) {
      if (out[out.length - 1] !== '…') out.push('…');
      continue;
    }
    out.push(`${ops[k]!.op} ${ops[k]!.line}`);
  }
  while (out[0] === '…') out.shift();
  while (out[out.length - 1] === '…') out.pop();
  return out.length > max ? [...out.slice(0, max), `… and ${out.length - max} more lines`] : out;
}
