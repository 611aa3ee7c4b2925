// `citus-migrate init`: writes a starter project from a template, never overwriting a file.
import { cpSync, existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CmError, EXIT, UsageError } from '../errors.js';
import type { CommandIo } from './io.js';

export const TEMPLATES = ['hammerdb', 'pgbench', 'saas'] as const;
const TEMPLATE_ROOT = fileURLToPath(new URL('../../templates/', import.meta.url));

function listFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? listFiles(p) : [p];
  });
}

/** CLI entry: copies templates/<name> into dir. */
export async function initCommand(opts: { template?: string; dir?: string; force?: boolean }, io: CommandIo): Promise<number> {
  const template = opts.template ?? 'saas';
  if (!(TEMPLATES as readonly string[]).includes(template)) throw new UsageError(`--template must be one of ${TEMPLATES.join(', ')}, got ${JSON.stringify(template)}`);
  const src = join(TEMPLATE_ROOT, template);
  const dest = resolve(io.cwd, opts.dir ?? '.');
  const files = listFiles(src).map((f) => relative(src, f));
  const clashes = files.filter((f) => existsSync(join(dest, f)));
  if (clashes.length > 0 && !opts.force) {
    throw new CmError(`not overwriting existing file(s) in ${opts.dir ?? '.'}: ${clashes.join(', ')} (use --force)`, 'file_exists', EXIT.error);
  }
  cpSync(src, dest, { recursive: true, force: true });
  for (const f of files) io.stderr(`created ${join(opts.dir ?? '.', f)}\n`);
  io.stderr(`next: citus-migrate validate -f ${join(opts.dir ?? '.', 'citus-migrate.yaml')}\n`);
  return EXIT.ok;
}
