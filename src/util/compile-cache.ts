// V8's code cache for the CLI's own bundle on Node 20, which has no module.enableCompileCache
// (Node >= 22.1 does; cli.ts uses it there). The bundle is CommonJS (rolldown.config.js): each of
// its files is compiled as a vm.Script with the bytes V8 produced for it in an earlier run, and a
// file compiled without them gets them written when the process exits, with the functions the
// run compiled on the way. Issue #25: compiling and lazily compiling the CLI costs ~40 ms a run.
//
// The bytes hold what the first run of the command compiled (what later runs compile besides is
// compiled as usual): writing them again at every exit would cost each run 10-20 ms.
//
// Where: a folder of the package itself (<package>/.compile-cache), never a shared temp folder:
// V8 trusts a code cache as it trusts code, and only who can change the package's code can
// change it. Not writable (a root-owned global install): nothing is cached, nothing fails.
// Which: one file per bundle file, command, Node version and architecture, named after the file's
// size and modification time. V8 itself refuses bytes of another V8 version, other flags or
// another source length; a torn write cannot happen (written to a temp name, then renamed).
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import vm from 'node:vm';

/** What the cache did in this run (--timings prints it). */
export interface CompileCacheStats {
  /** Files compiled from cached bytes. */
  hits: number;
  /** Files compiled without (none yet, or refused by V8), cached at exit. */
  misses: number;
}

type Compile = (this: Module, content: string, filename: string) => unknown;

/**
 * Compiles the CommonJS files under `scope` with a code cache kept in `dir`, `tag` naming the
 * run's kind (the command). Returns the stats object, updated as files load.
 */
export function installCompileCache(dir: string, scope: string, tag: string): CompileCacheStats {
  const stats: CompileCacheStats = { hits: 0, misses: 0 };
  const proto = Module.prototype as unknown as { _compile: Compile };
  const original = proto._compile;
  // Compiled without cached bytes (none yet, or refused): written at exit.
  const fresh: { script: vm.Script; file: string }[] = [];
  const prefix = `${tag.replace(/[^a-z0-9-]/gi, '_')}-${process.version}-${process.arch}`;
  proto._compile = function (this: Module, content: string, filename: string): unknown {
    if (!filename.startsWith(scope)) return original.call(this, content, filename);
    let file: string;
    try {
      const st = statSync(filename);
      file = join(dir, `${prefix}-${basename(filename)}-${st.size}-${Math.trunc(st.mtimeMs)}`);
    } catch {
      return original.call(this, content, filename);
    }
    let cachedData: Buffer | undefined;
    try {
      cachedData = readFileSync(file);
    } catch {
      cachedData = undefined;
    }
    // A `#!` line is only valid at the very start of a script: blanked, lines keep their numbers.
    const source = Module.wrap(content.startsWith('#!') ? content.replace(/^#!.*/, '') : content);
    const script = new vm.Script(source, { filename, ...(cachedData ? { cachedData } : {}) });
    if (cachedData !== undefined && !script.cachedDataRejected) stats.hits++;
    else {
      stats.misses++;
      fresh.push({ script, file });
    }
    const wrapper = script.runInThisContext({ displayErrors: true }) as (...args: unknown[]) => unknown;
    return wrapper.call(this.exports, this.exports, createRequire(filename), this, filename, dirname(filename));
  };
  process.once('exit', () => {
    if (fresh.length === 0) return;
    try {
      mkdirSync(dir, { recursive: true, mode: 0o755 });
      for (const { script, file } of fresh) {
        const temp = `${file}.${process.pid}.tmp`;
        writeFileSync(temp, script.createCachedData());
        renameSync(temp, file);
      }
    } catch {
      // A folder that cannot be written: the next run compiles as this one did.
    }
  });
  return stats;
}
