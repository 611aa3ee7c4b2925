// Text for a terminal or a review page shows every character a name holds: C0/C1 control
// characters (ESC starts terminal sequences such as `ESC[8m`, conceal) and Unicode bidi controls
// (U+202E reverses what follows) are written as visible escapes, so no name can hide a line.
/* eslint-disable no-control-regex -- matching control characters is the point */
const HIDDEN = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const HIDDEN_BUT_NEWLINE =
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const escape = (ch: string): string => {
  const code = ch.charCodeAt(0);
  return code < 0x100
    ? `\\x${code.toString(16).padStart(2, '0')}`
    : `\\u${code.toString(16).toUpperCase().padStart(4, '0')}`;
};

/** `text` with control and bidi characters as `\x1b` / `\u202E`; newlines too unless `keepNewlines`. */
export function visible(text: string, keepNewlines = false): string {
  return text.replace(keepNewlines ? HIDDEN_BUT_NEWLINE : HIDDEN, escape);
}
