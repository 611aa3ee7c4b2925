// What a command may touch besides its arguments: output streams, environment, terminal.
import { createRequire } from 'node:module';
import { CmError, EXIT, FileError } from '../errors.js';
import { useColor } from '../util/color.js';
import { writeOutput } from '../files/safe-write.js';

// Loaded when a prompt is shown, required (the bundle has no dynamic import: rolldown.config.js).
const requireHere = createRequire(import.meta.url);

export interface CommandIo {
  stdout(text: string): void;
  stderr(text: string): void;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly isTTY: boolean;
  readonly cwd: string;
  /** Whether stdout and stderr get ANSI colours (decided by util/color.ts); absent: never. */
  readonly color?: { readonly stdout: boolean; readonly stderr: boolean };
  /** Asks a question on the terminal; only called when isTTY. */
  prompt?(question: string): Promise<string>;
  /**
   * Handles SIGINT and SIGTERM until the returned function is called, instead of exiting; a
   * second signal calls the handler again (`again`: it says at once what is left running), then
   * exits (130 / 143). Absent in-process.
   */
  onInterrupt?(handler: (signal: 'SIGINT' | 'SIGTERM', again?: boolean) => void): () => void;
}

/** The real process's streams. */
export function processIo(): CommandIo {
  return {
    stdout: (t) => process.stdout.write(t),
    stderr: (t) => process.stderr.write(t),
    env: process.env,
    isTTY: Boolean(process.stdin.isTTY && process.stderr.isTTY),
    cwd: process.cwd(),
    color: {
      stdout: useColor({ isTTY: process.stdout.isTTY, env: process.env }),
      stderr: useColor({ isTTY: process.stderr.isTTY, env: process.env }),
    },
    onInterrupt: (handler) => {
      let seen = false;
      const on = (signal: 'SIGINT' | 'SIGTERM'): void => {
        if (seen) {
          handler(signal, true);
          process.exit(signal === 'SIGINT' ? EXIT.interrupted : EXIT.terminated);
        }
        seen = true;
        handler(signal);
      };
      process.on('SIGINT', on);
      process.on('SIGTERM', on);
      return () => {
        process.off('SIGINT', on);
        process.off('SIGTERM', on);
      };
    },
    prompt: async (question) => {
      const { createInterface } = requireHere('node:readline') as typeof import('node:readline');
      const rl = createInterface({ input: process.stdin, output: process.stderr });
      try {
        return await new Promise<string>((resolve, reject) => {
          // End of input (Ctrl-D) is no answer, so "no"; without this the question never settles.
          rl.once('close', () => resolve(''));
          rl.once('SIGINT', () =>
            reject(new CmError('interrupted at the prompt; nothing was run', 'interrupted', EXIT.interrupted)),
          );
          rl.question(question, resolve);
        });
      } finally {
        rl.close();
      }
    },
  };
}

/** Writes formatted output to --out (util/safe-write.ts: never through a link) or stdout. */
export function emit(text: string, out: string | undefined, io: CommandIo): void {
  if (out === undefined || out === '-') {
    io.stdout(text);
    return;
  }
  try {
    writeOutput(io.cwd, out, text);
  } catch (e) {
    if (e instanceof CmError) throw e;
    throw new FileError(`cannot write ${out}: ${(e as Error).message}`, out);
  }
  io.stderr(`wrote ${out}\n`);
}
