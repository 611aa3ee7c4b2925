// PostgreSQL's parser compiled to WebAssembly: libpg_query's full build (the one in
// @libpg-query/parser, with the PL/pgSQL compiler and the scanner), one instance for the SQL
// parser (pg-parse.ts) and the PL/pgSQL checks (plpgsql-check.ts). Its Emscripten loader is
// given the module's bytes and instantiates them synchronously: loading is one import and
// ~25 ms of the main thread, with no waiting on the thread pool or background compilation
// (which, behind a busy main thread, made a plan wait idle for 120 ms: issue #25).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { PgQueryWasm, PgQueryOptions } from '@libpg-query/parser/wasm/libpg-query.js';

// The loader is a CommonJS file: required as one, Node neither detects its format nor scans it
// for named exports (what importing it from ESM costs, ~20 ms).
const require = createRequire(import.meta.url);
const GLUE = '@libpg-query/parser/wasm/libpg-query.js';

let wasm: PgQueryWasm | undefined;
let loading: Promise<void> | undefined;

/** Loads the module once; pgWasm() needs it loaded. */
export function loadPgWasm(): Promise<void> {
  loading ??= (async () => {
    const path = require.resolve(GLUE);
    const factory = require(path) as (options: PgQueryOptions) => Promise<PgQueryWasm>;
    const bytes = readFileSync(join(dirname(path), 'libpg-query.wasm'));
    wasm = await factory({
      wasmBinary: bytes,
      instantiateWasm(imports, done) {
        const module = new WebAssembly.Module(bytes);
        const instance = new WebAssembly.Instance(module, imports);
        done(instance, module);
        return instance.exports;
      },
    });
  })();
  return loading;
}

/** The loaded module, or undefined before loadPgWasm has settled. */
export function pgWasm(): PgQueryWasm | undefined {
  return wasm;
}

/** Passes `text` to `fn` as a C string and returns the C string it answers (freed after). */
export function callWithText(w: PgQueryWasm, fn: (ptr: number) => number, text: string): string {
  const ptr = toC(w, text);
  try {
    const out = fn(ptr);
    try {
      return w.UTF8ToString(out);
    } finally {
      w._wasm_free_string(out);
    }
  } finally {
    w._free(ptr);
  }
}

function toC(w: PgQueryWasm, text: string): number {
  const len = w.lengthBytesUTF8(text) + 1;
  const ptr = w._malloc(len);
  w.stringToUTF8(text, ptr, len);
  return ptr;
}

/** libpg_query's parse of `sql`: the tree as JSON, or the error with its 1-based character cursor (0: none). */
export function parseRaw(w: PgQueryWasm, sql: string): { tree: string } | { error: string; cursor: number } {
  const ptr = toC(w, sql);
  let result = 0;
  try {
    result = w._wasm_parse_query_raw(ptr);
    if (!result) throw new Error('the SQL parser could not allocate memory');
    // struct PgQueryParseResult { char *parse_tree; char *stderr_buffer; PgQueryError *error; }
    const tree = w.getValue(result, 'i32');
    const error = w.getValue(result + 8, 'i32');
    if (error) {
      // struct PgQueryError { char *message; char *funcname; char *filename; int lineno; int cursorpos; … }
      const message = w.getValue(error, 'i32');
      return { error: message ? w.UTF8ToString(message) : 'unknown error', cursor: w.getValue(error + 16, 'i32') };
    }
    if (!tree) throw new Error('the SQL parser returned no parse tree');
    return { tree: w.UTF8ToString(tree) };
  } finally {
    w._free(ptr);
    if (result) w._wasm_free_parse_result(result);
  }
}
