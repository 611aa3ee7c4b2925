// What shell completion knows, read from the commander program itself (so it cannot drift from
// the commands): each command's path, options, the values an option or argument takes.
import type { Command } from 'commander';

export interface CompletionOption {
  /** `--format`, `-f`: every spelling. */
  readonly names: readonly string[];
  readonly description: string;
  /** Takes a value (`--format <format>`). */
  readonly takesValue: boolean;
  /** The values it takes, when it lists them (commander's choices). */
  readonly choices?: readonly string[];
  /** Its value is a file or folder name (`<file>`, `<dir>`, `<baseline.json>`). */
  readonly path?: boolean;
}

export interface CompletionCommand {
  readonly name: string;
  readonly description: string;
  readonly options: readonly CompletionOption[];
  /** Choices of its first argument (`completion bash|zsh|fish`). */
  readonly argumentChoices?: readonly string[];
  readonly commands: readonly CompletionCommand[];
}

/** The completion tree of a commander command, with the implicit --help (and --version at the top). */
export function completionSpec(cmd: Command): CompletionCommand {
  const options: CompletionOption[] = cmd.options
    .filter((o) => !o.hidden)
    .map((o) => ({
      names: [o.long, o.short].filter((n): n is string => n !== undefined),
      description: o.description,
      takesValue: o.required || o.optional,
      ...(o.argChoices ? { choices: o.argChoices } : {}),
      ...(/<(file|dir|[\w.-]+\.json)>/.test(o.flags) ? { path: true } : {}),
    }));
  options.push({ names: ['--help', '-h'], description: 'display help for command', takesValue: false });
  const choices = cmd.registeredArguments[0]?.argChoices;
  return {
    name: cmd.name(),
    description: cmd.description(),
    options,
    ...(choices ? { argumentChoices: choices } : {}),
    commands: cmd.commands.filter((c) => !(c as Command & { _hidden?: boolean })._hidden).map(completionSpec),
  };
}

/** Every command with its path from the top (`[]` is the program, `['history', 'show']`). */
export function commandPaths(
  spec: CompletionCommand,
  path: readonly string[] = [],
): { path: readonly string[]; cmd: CompletionCommand }[] {
  return [{ path, cmd: spec }, ...spec.commands.flatMap((c) => commandPaths(c, [...path, c.name]))];
}
