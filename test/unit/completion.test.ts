// Shell completion is rendered from the program: every command and option is in each script,
// and the bash script completes as a shell would.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli-program.js';
import { commandPaths, completionSpec } from '../../src/cli/completion-spec.js';
import { completionScript, SHELLS } from '../../src/cli/completion.js';
import { cli } from '../support/run-cli.js';

const io = { stdout: () => undefined, stderr: () => undefined, env: {}, isTTY: false, cwd: process.cwd() };
const program = buildProgram(io, () => undefined);

function walk(cmd: Command, path: string[] = []): { path: string[]; options: string[] }[] {
  const options = cmd.options.flatMap((o) => [o.long, o.short].filter((n): n is string => n !== undefined));
  return [{ path, options }, ...cmd.commands.flatMap((c) => walk(c, [...path, c.name()]))];
}

function hasShell(name: string): boolean {
  return spawnSync(name, ['-c', 'exit 0']).status === 0;
}

function scriptFile(shell: (typeof SHELLS)[number]): string {
  const file = join(mkdtempSync(join(tmpdir(), 'cm-completion-')), `c.${shell}`);
  writeFileSync(file, completionScript(shell, 'citus-migrate', completionSpec(program)));
  return file;
}

// Calls the zsh function for the words given ($2…), with zsh's completion builtins replaced by
// functions that print what they are handed.
const ZSH_DRIVER = [
  'compdef() { :; }',
  'compadd() { print -r -- "compadd:${(j: :)@}"; }',
  '_files() { print -r -- _files; }',
  '_message() { print -r -- message; }',
  '_describe() { local arr=$4; print -r -- "${(j: :)${(@)${(P)arr}%%:*}}"; }',
  'source "$1"; shift; words=("$@"); CURRENT=$#; _citus_migrate',
].join('\n');

describe('completion', () => {
  const paths = commandPaths(completionSpec(program)).map((c) => c.path.join(' '));

  it('knows every command, nested ones too', () => {
    for (const name of ['validate', 'plan', 'apply', 'bench', 'history', 'history show', 'analyze', 'introspect'])
      expect(paths).toContain(name);
    for (const name of ['hammerdb', 'cluster up', 'cluster down', 'cluster status', 'init', 'completion', 'version'])
      expect(paths).toContain(name);
    expect(paths.length).toBe(walk(program).length);
  });

  for (const shell of SHELLS) {
    it(`${shell}: every command and every option of it, with the choices of --format`, () => {
      const script = completionScript(shell, 'citus-migrate', completionSpec(program));
      for (const { path, options } of walk(program)) {
        if (path.length) expect(script, path.join(' ')).toMatch(new RegExp(`[ '/]${path.at(-1)}[ ':]`));
        for (const o of options) {
          const spelled = shell === 'fish' ? (o.startsWith('--') ? `-l '${o.slice(2)}'` : `-s '${o.slice(1)}'`) : o;
          expect(script, `${path.join(' ')} ${o}`).toContain(spelled);
        }
      }
      expect(script).toMatch(/text.+sql.+json.+markdown/);
    });
  }

  it('bash completes commands, options and option values', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cm-completion-'));
    const file = join(dir, 'c.bash');
    writeFileSync(file, completionScript('bash', 'citus-migrate', completionSpec(program)));
    const complete = (...words: string[]): string => {
      const r = spawnSync(
        'bash',
        [
          '-c',
          `source "$0"; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _citus_migrate; echo "\${COMPREPLY[*]}"`,
          file,
          ...words,
        ],
        { encoding: 'utf8' },
      );
      expect(r.stderr).toBe('');
      return r.stdout.trim();
    };
    expect(complete('citus-migrate', 'hi')).toBe('history');
    expect(complete('citus-migrate', 'history', 's')).toBe('show');
    expect(complete('citus-migrate', 'plan', '--format', '')).toBe('text sql json markdown');
    expect(complete('citus-migrate', 'history', 'show', '--fo')).toBe('--format');
    expect(complete('citus-migrate', 'completion', '')).toBe('bash zsh fish --help -h');
  });

  // zsh: the script registers itself with compinit, and its function offers, for the words typed, what
  // the shell then filters (compadd, _describe and _files are zsh's; here they print what they get).
  const zsh = hasShell('zsh');
  if (!zsh) process.stdout.write('completion: zsh not installed, its test skipped\n');
  it.skipIf(!zsh)('zsh registers with compinit and completes commands, options and option values', () => {
    const file = scriptFile('zsh');
    const registered = spawnSync(
      'zsh',
      [
        '-f',
        '-c',
        'autoload -Uz compinit && compinit -u -D; source "$1"; print -r -- $_comps[citus-migrate]',
        'zsh',
        file,
      ],
      { encoding: 'utf8' },
    );
    expect(registered.stderr).toBe('');
    expect(registered.stdout.trim()).toBe('_citus_migrate');
    const offered = (...words: string[]): string => {
      const r = spawnSync('zsh', ['-f', '-c', ZSH_DRIVER, 'zsh', file, ...words], { encoding: 'utf8' });
      expect(r.stderr).toBe('');
      return r.stdout.trim();
    };
    expect(offered('citus-migrate', 'pl').split('\n')[0]).toContain('plan');
    expect(offered('citus-migrate', 'plan', '--format', '')).toBe('compadd:-- text sql json markdown');
    expect(offered('citus-migrate', 'history', 's')).toBe('show\n--database --limit --format --help -h');
    expect(offered('citus-migrate', 'apply', '--plan', '')).toBe('_files');
  });

  const fish = hasShell('fish');
  if (!fish) process.stdout.write('completion: fish not installed, its test skipped\n');
  it.skipIf(!fish)('fish completes commands, options and option values', () => {
    const file = scriptFile('fish');
    const complete = (line: string): string => {
      const r = spawnSync('fish', ['-N', '-c', `source $argv[1]; complete -C ${JSON.stringify(line)}`, file], {
        encoding: 'utf8',
      });
      expect(r.stderr).toBe('');
      return r.stdout
        .trim()
        .split('\n')
        .map((l) => l.split('\t')[0])
        .join(' ');
    };
    expect(complete('citus-migrate hi')).toBe('history');
    expect(complete('citus-migrate plan --fo')).toBe('--format');
    expect(complete('citus-migrate plan --format ')).toBe('json markdown sql text');
    expect(complete('citus-migrate history s')).toBe('show');
  });

  it('citus-migrate completion <shell> prints it; another shell is exit 64', async () => {
    const r = await cli(['completion', 'bash']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('complete -F _citus_migrate citus-migrate');
    expect((await cli(['completion', 'tcsh'])).code).toBe(64);
  });
});
