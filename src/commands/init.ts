// `citus-migrate init`: writes a starter project from a template, never overwriting a file.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { CST, Parser } from 'yaml';
import { CmError, EXIT, UsageError } from '../errors.js';
import type { CommandIo } from './io.js';
import { packageRoot } from '../util/package-root.js';
import { checkOutputs, outputRoot, writeOutputs } from '../files/safe-write.js';

import { TEMPLATES } from './init-templates.js';

export { TEMPLATES } from './init-templates.js';
const TEMPLATE_ROOT = join(packageRoot(), 'templates');
const SCHEMA_IN_PACKAGE = ['node_modules', 'citus-migrate', 'schema', 'manifest-v1.schema.json'];
const SCHEMA_COMMENT = '# yaml-language-server: $schema=';

function listFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? listFiles(p) : [p];
  });
}

/** Where the manifest in `dir` finds the JSON schema: the installed package's copy (as the README says). */
export function schemaReference(dir: string): string {
  // The templates point at ../../schema/ (right inside this repository only); a new project
  // reaches the schema through node_modules, in dir or the nearest folder above it that has it.
  for (let d = dir; ; d = dirname(d)) {
    if (existsSync(join(d, ...SCHEMA_IN_PACKAGE)))
      return relative(dir, join(d, ...SCHEMA_IN_PACKAGE))
        .split(sep)
        .join('/');
    if (dirname(d) === d) return SCHEMA_IN_PACKAGE.join('/');
  }
}

/** The manifest text with its yaml-language-server $schema comment pointing at `schema`; the rest byte for byte. */
export function withSchemaComment(text: string, schema: string): string {
  // Through yaml's concrete syntax tree, which re-emits every other token exactly as read.
  return [...new Parser().parse(text)]
    .map((token) => {
      if (token.type === 'comment' && token.source.startsWith(SCHEMA_COMMENT))
        return CST.stringify({ ...token, source: `${SCHEMA_COMMENT}${schema}` });
      return CST.stringify(token);
    })
    .join('');
}

/** A path as one shell word (single-quoted when it holds anything but plain characters). */
function shellWord(text: string): string {
  return /^[A-Za-z0-9_./@%+=:,-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * Files of the other templates found in dest that `template` does not have: what an earlier init
 * with another template left. Never deleted (init removes nothing); `unchanged` when byte for byte
 * the template's file, so the user knows which can go without losing an edit.
 */
export function leftFromOtherTemplates(
  dest: string,
  template: string,
  files: readonly string[],
): { file: string; template: string; unchanged: boolean }[] {
  const out: { file: string; template: string; unchanged: boolean }[] = [];
  for (const other of TEMPLATES.filter((t) => t !== template)) {
    const src = join(TEMPLATE_ROOT, other);
    for (const f of listFiles(src).map((p) => relative(src, p))) {
      if (files.includes(f) || !existsSync(join(dest, f)) || out.some((o) => o.file === f)) continue;
      out.push({ file: f, template: other, unchanged: readFileSync(join(dest, f)).equals(readFileSync(join(src, f))) });
    }
  }
  return out;
}

/** CLI entry: copies templates/<name> into dir. */
export async function initCommand(
  opts: { template?: string; dir?: string; force?: boolean },
  io: CommandIo,
): Promise<number> {
  const template = opts.template ?? 'saas';
  if (!(TEMPLATES as readonly string[]).includes(template))
    throw new UsageError(`--template must be one of ${TEMPLATES.join(', ')}, got ${JSON.stringify(template)}`);
  const src = join(TEMPLATE_ROOT, template);
  const dest = resolve(io.cwd, opts.dir ?? '.');
  const files = listFiles(src).map((f) => relative(src, f));
  // Checked before anything is written: no link in dest leading out of it, none a link itself.
  const root = outputRoot(io.cwd, dest, true);
  const found = new Set(
    checkOutputs(
      root,
      files.map((f) => join(dest, f)),
    ),
  );
  const clashes = files.filter((f) => found.has(join(dest, f)));
  if (clashes.length > 0 && !opts.force) {
    throw new CmError(
      `not overwriting existing file(s) in ${opts.dir ?? '.'}: ${clashes.join(', ')} (use --force)`,
      'file_exists',
      EXIT.error,
    );
  }
  const schema = schemaReference(dest);
  writeOutputs(
    root,
    files.map((f) => {
      const text = readFileSync(join(src, f));
      return {
        path: join(dest, f),
        data: f === 'citus-migrate.yaml' ? withSchemaComment(text.toString('utf8'), schema) : text,
        mode: statSync(join(src, f)).mode & 0o777,
      };
    }),
    opts.force ?? false,
  );
  for (const f of files) io.stderr(`created ${join(opts.dir ?? '.', f)}\n`);
  ignoreToolFolder(dest, opts.dir ?? '.', io);
  for (const l of leftFromOtherTemplates(dest, template, files))
    io.stderr(
      `left ${join(opts.dir ?? '.', l.file)}: a file of template ${l.template}, not of ${template}; init deletes nothing (${l.unchanged ? `unchanged from the template: remove it if the new project does not use it` : 'edited since: yours to keep or remove'})\n`,
    );
  // A command that works from where the user is, with the package installed or through npx.
  io.stderr(
    `next: npx citus-migrate validate${dest === resolve(io.cwd) ? '' : ` -f ${shellWord(join(opts.dir ?? '.', 'citus-migrate.yaml'))}`}\n`,
  );
  return EXIT.ok;
}

/**
 * `.citus-migrate/` (what `cluster up` keeps) in the project's .gitignore: a .gitignore is written
 * when there is none; one that lacks it is left as it is and the line suggested.
 */
function ignoreToolFolder(dest: string, shown: string, io: CommandIo): void {
  const file = join(dest, '.gitignore');
  if (!existsSync(file)) {
    try {
      writeFileSync(file, '# the throwaway cluster of `citus-migrate cluster up`\n.citus-migrate/\n', { flag: 'wx' });
      io.stderr(`created ${join(shown, '.gitignore')} (.citus-migrate/)\n`);
      return;
    } catch {
      // a link to nowhere, a folder of that name: suggested below instead
    }
  }
  if (!existsSync(file)) {
    io.stderr(`add .citus-migrate/ to ${join(shown, '.gitignore')}: cluster up keeps its throwaway cluster there\n`);
    return;
  }
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .map((l) => l.trim());
  if (!lines.some((l) => /^\/?\.citus-migrate\/?\*{0,2}$/.test(l)))
    io.stderr(`add .citus-migrate/ to ${join(shown, '.gitignore')}: cluster up keeps its throwaway cluster there\n`);
}
