import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/**', 'data/**', 'dist/**', 'admin-ui/dist/**', 'admin-ui/dist-graphiql/**', '**/.tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
    rules: {
      'no-console': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // docs/reference/style.md: past ~300 lines, split along the seam that is already there. Tests and test kits are exempt
    // (a suite reads best whole). Import cycles and forbidden edges are checked by tests/architecture/importRules.unit.test.ts.
    // Lines of code are counted (not blank lines or comments): prettier decides where lines break.
    files: ['**/*.{ts,tsx,mts,js,mjs}'],
    ignores: ['**/*.test.ts', '**/*.test.tsx', 'tests/**', '**/testing/**'],
    rules: { 'max-lines': ['error', { max: 300, skipBlankLines: true, skipComments: true }] },
  },
  {
    // A role's or contracts' door is one explicit export list (docs/reference/style.md: no `export *`); it grows with what the
    // roles share and has no seam to split along, so it gets more room than a file of code.
    files: ['contracts/index.ts', '*/index.ts'],
    rules: { 'max-lines': ['error', { max: 450 }] },
  },
  {
    files: ['deploy/bin/**', 'bench/**', 'tests/run.ts'],
    rules: { 'no-console': 'off' },
  },
  {
    // Per-request code of the read path (docs/reference/hot-paths.md): on Node 20's V8 an object literal that opens with a
    // spread of a non-empty object and goes on with more properties gets a new hidden class on every evaluation,
    // which turns the code that reads it megamorphic and keeps V8 from optimizing its callers.
    files: [
      'query-service/http/**/*.ts',
      'query-service/generatedApi/serve/**/*.ts',
      'query-service/generatedApi/dataSource/**/*.ts',
      'query-service/generatedApi/graphql/**/*.ts',
      'query-service/pages/graphqlIdePage.ts',
      'query-service/readers/**/*.ts',
      'deploy/http/**/*.ts',
      'deploy/logger.ts',
    ],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'ObjectExpression[properties.length>1] > SpreadElement:first-child',
          message: 'Hot path: do not open an object literal with a spread followed by more properties (docs/reference/hot-paths.md).',
        },
      ],
    },
  },
);
