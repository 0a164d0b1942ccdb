// ESLint (flat config): typescript-eslint's recommended rules, type-aware, so that a promise is never dropped or
// passed where a callback's result is ignored. Formatting is Prettier's (npm run format:check), not ESLint's.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const globals = Object.fromEntries(
  ['process', 'console', 'URL', 'Buffer', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'].map((name) => [name, 'readonly']),
);

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', '.gatehouse/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // node:test's describe/it return promises that the runner itself awaits.
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            { from: 'package', package: 'node:test', name: ['describe', 'it', 'test', 'suite', 'before', 'after', 'beforeEach', 'afterEach'] },
          ],
        },
      ],
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // Domains merge their tables into the store's DB (`interface DB extends XTables {}`) and their entities into
      // the bus's ChangeEntities, which the bus declares empty.
      '@typescript-eslint/no-empty-object-type': ['error', { allowInterfaces: 'with-single-extends', allowWithName: '^ChangeEntities$' }],
    },
  },
  {
    // Tests read JSON answers, whose shape is what they assert: `any` there is the honest type.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: globals },
  },
  {
    // Tool configuration that its tool loads as CommonJS (.dependency-cruiser.cjs).
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { ...globals, module: 'writable', require: 'readonly' } },
  },
);
