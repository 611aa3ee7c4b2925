// POSIX sh quoting for the commands the tool prints. No parser for sh ships with Node, and the rule
// is exact: inside single quotes nothing is special, and a single quote is written '\''.

/** A word of a printed command: quoted as needed, or shell syntax kept as is (such as "$DATABASE_URL"). */
export type ShellWord = string | { readonly raw: string };

const SAFE = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** Quotes one argument for sh, leaving it bare when nothing in it is special. */
export function quoteShellArg(arg: string): string {
  if (SAFE.test(arg)) return arg;
  return `'${arg.split("'").join("'\\''")}'`;
}

/** Joins words into one sh command line. */
export function shellCommand(words: readonly ShellWord[]): string {
  return words.map((w) => (typeof w === 'string' ? quoteShellArg(w) : w.raw)).join(' ');
}
