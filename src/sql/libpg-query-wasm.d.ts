// The Emscripten module inside @libpg-query/parser (the full build of PostgreSQL's parser, with
// PL/pgSQL), used directly by pg-wasm.ts: only what this project calls.
declare module '@libpg-query/parser/wasm/libpg-query.js' {
  export interface PgQueryWasm {
    lengthBytesUTF8(text: string): number;
    stringToUTF8(text: string, ptr: number, max: number): void;
    UTF8ToString(ptr: number): string;
    getValue(ptr: number, type: 'i32'): number;
    _malloc(size: number): number;
    _free(ptr: number): void;
    _wasm_parse_query_raw(ptr: number): number;
    _wasm_free_parse_result(ptr: number): void;
    _wasm_parse_plpgsql(ptr: number): number;
    _wasm_scan(ptr: number): number;
    _wasm_free_string(ptr: number): void;
  }
  /** Emscripten's module options: the module's bytes, and how to instantiate them. */
  export interface PgQueryOptions {
    wasmBinary?: Uint8Array;
    instantiateWasm?(
      imports: WebAssembly.Imports,
      done: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void,
    ): WebAssembly.Exports;
  }
  const factory: (options?: PgQueryOptions) => Promise<PgQueryWasm>;
  export default factory;
}
