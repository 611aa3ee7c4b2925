// The CLI as it ships (issue #25): `npm run build` compiles src/ with tsc into dist/ (the library,
// the tools, the benchmarks' imports), then this bundles tsc's dist/cli.js and what it imports,
// dependencies included, into dist/cli.js and dist/chunks/: a command's code is one chunk loaded
// when it runs. Node then resolves and reads a few dozen files instead of ~370 (zod alone is 99,
// yaml 73). Code that finds files of the package (package.json, migrations/, templates/) walks up
// to package.json (src/util/package-root.ts), so it works from a chunk as from src/ or dist/.
import { rmSync } from 'node:fs';
import { defineConfig } from 'rolldown';

// Left to node_modules: libpg_query's WASM and its loader (src/sql/pg-wasm.ts reads the .wasm beside it), what
// bench and cluster load (hdr-histogram-js, testcontainers with its native ssh2), pg's optional
// native binding.
const EXTERNAL = [/^@libpg-query\//, /^testcontainers(\/|$)/, /^hdr-histogram-js(\/|$)/, 'pg-native'];

export default defineConfig({
  input: { cli: 'src/cli.ts' },
  // The sources import each other as .js (what tsc emits); here they are still .ts.
  resolve: { extensionAlias: { '.js': ['.ts', '.js'] } },
  platform: 'node',
  external: EXTERNAL,
  plugins: [
    {
      // The chunks' names carry a hash: without this, every build would leave the last one's.
      name: 'remove-old-chunks',
      buildStart() {
        rmSync('dist/chunks', { recursive: true, force: true });
      },
    },
  ],
  output: {
    dir: 'dist',
    format: 'esm',
    entryFileNames: '[name].js',
    chunkFileNames: 'chunks/[name]-[hash].js',
  },
});
