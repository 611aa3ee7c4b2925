// The Emscripten module inside @libpg-query/parser (the full build of PostgreSQL's parser, with
// PL/pgSQL), used directly by plpgsql-check.ts: only what that module calls.
declare module '@libpg-query/parser/wasm/libpg-query.js' {
  export interface PgQueryWasm {
    lengthBytesUTF8(text: string): number;
    stringToUTF8(text: string, ptr: number, max: number): void;
    UTF8ToString(ptr: number): string;
    _malloc(size: number): number;
    _free(ptr: number): void;
    _wasm_parse_plpgsql(ptr: number): number;
    _wasm_scan(ptr: number): number;
    _wasm_free_string(ptr: number): void;
  }
  const factory: () => Promise<PgQueryWasm>;
  export default factory;
}
