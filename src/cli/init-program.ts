// The commander registration of `init` (its module, with yaml, loads only when it runs).
import { Option, type Command } from 'commander';
import { TEMPLATES } from '../commands/init-templates.js';
import type { CommandIo } from '../commands/io.js';
import { timed } from '../util/timings.js';

/** Adds `init` to the program. */
export function registerInit(program: Command, io: CommandIo, setCode: (n: number) => void): void {
  program
    .command('init')
    .description('write a starter project from a template')
    .argument('[dir]', 'target directory', '.')
    .addOption(new Option('--template <name>', 'starter template').choices(TEMPLATES).default('saas'))
    .option('--force', 'overwrite existing files')
    .action(async (dir: string, o) => {
      const { initCommand } = await timed('load command', () => import('../commands/init.js'));
      setCode(await initCommand({ ...o, dir }, io));
    });
}
