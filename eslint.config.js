// ESLint (typescript-eslint's recommended rules) over the sources, tests and benchmark scripts.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

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
);
