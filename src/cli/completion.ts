// `citus-migrate completion bash|zsh|fish`: a completion script rendered from the program's
// own commands and options (completion-spec.ts). Pure: spec in, script text out. Every word
// that reaches the script is single-quoted for its shell.
import { commandPaths, type CompletionCommand, type CompletionOption } from './completion-spec.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

/** 'text' for sh/bash/zsh: a single-quoted word. */
const sq = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;
/** The same for fish, where a quote inside quotes is escaped with a backslash. */
const fq = (s: string): string => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
const oneLine = (s: string): string => s.replace(/\s+/g, ' ').trim();
const key = (path: readonly string[]): string => (path.length ? `/${path.join('/')}` : '');

/** Options that take a value, and what that value completes to: choices, file names or nothing. */
function valueCases(
  path: readonly string[],
  opts: readonly CompletionOption[],
  render: (o: CompletionOption) => string,
) {
  return opts
    .filter((o) => o.takesValue)
    .map((o) => `    ${o.names.map((n) => sq(`${key(path)}:${n}`)).join('|')}) ${render(o)} ;;`);
}

function bash(name: string, spec: CompletionCommand): string {
  const all = commandPaths(spec);
  const fn = `_${name.replace(/[^A-Za-z0-9]/g, '_')}`;
  const known = all.filter((c) => c.path.length > 0).map((c) => sq(key(c.path)));
  return [
    `# bash completion for ${name}: source <(${name} completion bash)`,
    `${fn}() {`,
    '  local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}" path="" w i',
    '  for ((i = 1; i < COMP_CWORD; i++)); do',
    '    w="${COMP_WORDS[i]}"',
    `    case "$path/$w" in ${known.join('|')}) path="$path/$w" ;; esac`,
    '  done',
    '  case "$path:$prev" in',
    ...all.flatMap(({ path, cmd }) =>
      valueCases(path, cmd.options, (o) =>
        o.choices
          ? `COMPREPLY=($(compgen -W ${sq(o.choices.join(' '))} -- "$cur")); return`
          : o.path
            ? 'COMPREPLY=($(compgen -f -- "$cur")); return'
            : 'COMPREPLY=(); return',
      ),
    ),
    '  esac',
    '  local words=""',
    '  case "$path" in',
    ...all.map(({ path, cmd }) => {
      const words = [
        ...cmd.commands.map((c) => c.name),
        ...(cmd.argumentChoices ?? []),
        ...cmd.options.flatMap((o) => o.names),
      ];
      return `    ${sq(key(path))}) words=${sq(words.join(' '))} ;;`;
    }),
    '  esac',
    '  COMPREPLY=($(compgen -W "$words" -- "$cur"))',
    '}',
    `complete -F ${fn} ${name}`,
    '',
  ].join('\n');
}

/** zsh's `_describe` items: `word:description`, the colon in a word escaped. */
const described = (word: string, description: string): string =>
  sq(`${word.replace(/:/g, '\\:')}:${oneLine(description)}`);

function zsh(name: string, spec: CompletionCommand): string {
  const all = commandPaths(spec);
  const fn = `_${name.replace(/[^A-Za-z0-9]/g, '_')}`;
  const known = all.filter((c) => c.path.length > 0).map((c) => sq(key(c.path)));
  return [
    `#compdef ${name}`,
    `# zsh completion for ${name}: source <(${name} completion zsh), or save as ${fn} in your $fpath`,
    `${fn}() {`,
    '  local p="" w i',
    '  for ((i = 2; i < CURRENT; i++)); do',
    '    w="${words[i]}"',
    `    case "$p/$w" in (${known.join('|')}) p="$p/$w" ;; esac`,
    '  done',
    '  case "$p:${words[CURRENT-1]}" in',
    ...all.flatMap(({ path, cmd }) =>
      valueCases(path, cmd.options, (o) =>
        o.choices
          ? `compadd -- ${o.choices.map(sq).join(' ')}; return`
          : o.path
            ? '_files; return'
            : `_message ${sq(oneLine(o.description))}; return`,
      ).map((l) => l.replace(/^ {4}/, '    (')),
    ),
    '  esac',
    '  local -a subs opts',
    '  case "$p" in',
    ...all.map(({ path, cmd }) => {
      const subs = [
        ...cmd.commands.map((c) => described(c.name, c.description)),
        ...(cmd.argumentChoices ?? []).map((c) => described(c, c)),
      ];
      const opts = cmd.options.flatMap((o) => o.names.map((n) => described(n, o.description)));
      return `    (${sq(key(path))}) subs=(${subs.join(' ')}); opts=(${opts.join(' ')}) ;;`;
    }),
    '  esac',
    "  (( ${#subs} )) && _describe -t commands 'command' subs",
    "  _describe -t options 'option' opts",
    '}',
    `if [ "$funcstack[1]" = ${sq(fn)} ]; then ${fn} "$@"; else compdef ${fn} ${name}; fi`,
    '',
  ].join('\n');
}

function fish(name: string, spec: CompletionCommand): string {
  const all = commandPaths(spec);
  const c = `complete -c ${name}`;
  const cond = (path: readonly string[], cmd: CompletionCommand): string => {
    if (path.length === 0) return '__fish_use_subcommand';
    const seen = path.map((p) => `__fish_seen_subcommand_from ${fq(p)}`);
    const below = cmd.commands.map((s) => fq(s.name));
    return [...seen, ...(below.length ? [`not __fish_seen_subcommand_from ${below.join(' ')}`] : [])].join('; and ');
  };
  const lines = [`# fish completion for ${name}: ${name} completion fish | source`, `${c} -f`];
  for (const { path, cmd } of all) {
    const n = fq(cond(path, cmd));
    for (const sub of cmd.commands) lines.push(`${c} -n ${n} -a ${fq(sub.name)} -d ${fq(oneLine(sub.description))}`);
    if (cmd.argumentChoices) lines.push(`${c} -n ${n} -a ${fq(cmd.argumentChoices.join(' '))}`);
    for (const o of cmd.options) {
      const names = o.names.map((x) => (x.startsWith('--') ? `-l ${fq(x.slice(2))}` : `-s ${fq(x.slice(1))}`));
      const value = !o.takesValue ? '' : o.choices ? ` -x -a ${fq(o.choices.join(' '))}` : o.path ? ' -r -F' : ' -x';
      lines.push(`${c} -n ${n} ${names.join(' ')}${value} -d ${fq(oneLine(o.description))}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** The completion script for `shell`, completing `name` as `spec` describes it. */
export function completionScript(shell: Shell, name: string, spec: CompletionCommand): string {
  switch (shell) {
    case 'bash':
      return bash(name, spec);
    case 'zsh':
      return zsh(name, spec);
    case 'fish':
      return fish(name, spec);
  }
}
