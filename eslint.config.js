// ESLint (typescript-eslint's recommended rules) over the sources, tests and benchmark scripts.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

/** The kinds of object references (src/model/object-ref.ts's RefKind). */
const REF_KINDS = [
  'table',
  'relation',
  'sequence',
  'type',
  'index',
  'routine',
  'schema',
  'column',
  'row',
  'constraint',
  'statistics',
  'collation',
  'publication',
  'server',
  'cast',
];

const EDGES = ['**/db/*', '**/introspect/*', '**/own/*'];
const WORKFLOWS = ['**/apply/*', '**/bench/*', '**/cluster/*', '**/hammerdb/*'];
const CLI = {
  group: ['**/commands/*', '**/cli/*', '**/cli-*', '**/cli.js', '**/index.js'],
  message: 'the CLI is the top layer',
};
const ABOVE_WORKFLOWS = {
  group: ['**/api/*', ...CLI.group],
  message: 'the library (api/) and the CLI are above this layer',
};

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', '.citus-migrate/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        performance: 'readonly',
        NodeJS: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      // Parse trees from libpg-query are untyped JSON: sql/pg-parse.ts's Node is `any` on purpose.
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  // A source file a newcomer reads in one sitting (the maintainability issue's rule).
  { files: ['src/**/*.ts'], rules: { 'max-lines': ['error', { max: 300 }] } },
  // No two source files import each other, however far round.
  {
    files: ['src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: 'tsconfig.json' })],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  // Arrows point down (docs/architecture.md, "Layers"): the CLI (cli/, commands/, cli-*.ts) over
  // the library (api/, index.ts), over the workflows (apply/, bench/, cluster/, hammerdb/), over
  // the database edges (db/, introspect/, own/), over the pure core (util/, sql/, model/, objects/,
  // locality/, manifest/, plan/, format/). Nothing imports a layer above its own.
  layer(
    ['src/{util,sql,model,objects,locality,manifest,plan,format}/**/*.ts'],
    [
      // The pure core touches no database, nor names its types: what both share is in model/
      // (the catalog answer, catalog-doc.ts; the shards as read, shard-state.ts).
      {
        group: [...EDGES, ...WORKFLOWS],
        allowTypeImports: false,
        message: 'the pure core runs no query and no workflow',
      },
      ABOVE_WORKFLOWS,
    ],
  ),
  layer(['src/{db,introspect,own,apply,bench,cluster,hammerdb}/**/*.ts'], [ABOVE_WORKFLOWS]),
  layer(['src/api/**/*.ts'], [CLI]),
  // Object references ("table app.t", "column app.t.c") are built by model/object-ref.ts alone:
  // a template literal anywhere else that is nothing but a ref kind and names is refused.
  {
    files: ['src/**/*.ts'],
    ignores: ['src/model/object-ref.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: `TemplateLiteral[quasis.0.value.raw=/^(${REF_KINDS.join('|')}) $/]:not(:has(TemplateElement[value.raw=/[^.]/]:not(:first-child)))`,
          message: 'build object references with model/object-ref.ts (tableRef, columnRef…), not by hand',
        },
      ],
    },
  },
  // Type-aware: a promise nobody awaits loses its error (and the apply's order).
  {
    files: ['src/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: { '@typescript-eslint/no-floating-promises': 'error', '@typescript-eslint/no-misused-promises': 'error' },
  },
);

/** A layer rule: `files` may not import what `patterns` name. */
function layer(files, patterns) {
  return { files, rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns }] } };
}
