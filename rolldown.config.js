// The CLI as it ships (issue #25): `npm run build` compiles src/ with tsc into dist/ (the library,
// the tools, the benchmarks' imports, and the executable dist/cli.js), then this bundles the CLI
// (src/cli-main.ts) and what it imports, dependencies included, into dist/chunks/: a command's
// code is one chunk loaded when it runs. Node then resolves and reads a few dozen files instead
// of ~370 (zod alone is 99, yaml 73). CommonJS, which Node's compile cache (Node >= 22.1) keeps
// for the next run as it does ES modules (src/cli.ts turns it on). Code that finds
// files of the package (package.json, migrations/, templates/) walks up to package.json
// (src/util/package-root.ts), so it works from a chunk as from src/ or dist/.
import { rmSync } from 'node:fs';
import { defineConfig } from 'rolldown';

// Left to node_modules: libpg_query's WASM and its loader (src/sql/pg-wasm.ts reads the .wasm
// beside it), what bench and cluster load (hdr-histogram-js, testcontainers with its native
// ssh2), pg's optional native binding. Each is CommonJS, required: the bundle keeps to one module
// system (no import() in its code).
const EXTERNAL = [/^@libpg-query\//, /^testcontainers(\/|$)/, /^hdr-histogram-js(\/|$)/, 'pg-native'];

export default defineConfig({
  input: { 'cli-main': 'src/cli-main.ts' },
  // The sources import each other as .js (what tsc emits); here they are still .ts.
  resolve: { extensionAlias: { '.js': ['.ts', '.js'] } },
  platform: 'node',
  external: EXTERNAL,
  plugins: [
    {
      // The chunks' names carry a hash: without this, every build would leave the last one's
      // (and their cached code, which no run would use again).
      name: 'remove-old-chunks',
      buildStart() {
        rmSync('dist/chunks', { recursive: true, force: true });
        rmSync('.compile-cache', { recursive: true, force: true });
      },
    },
    {
      // Fails the build on an import() left in the bundle's code (see EXTERNAL).
      name: 'no-dynamic-import',
      renderChunk(code, chunk) {
        const bare = code.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, '');
        const at = bare.search(/(?<![\w$.])import\s*\(/);
        if (at >= 0)
          this.error(`${chunk.fileName} keeps a dynamic import (${bare.slice(at, at + 60)}): require it instead`);
        return null;
      },
    },
  ],
  output: {
    dir: 'dist',
    format: 'cjs',
    // For `node --enable-source-maps` (and a debugger): the stack's lines in src/.
    sourcemap: true,
    entryFileNames: 'chunks/[name].cjs',
    chunkFileNames: 'chunks/[name]-[hash].cjs',
  },
});
