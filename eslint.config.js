import js from '@eslint/js'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'
import { serverLayersRule, sqlInRepositoriesRule } from './scripts/lint/server-layers.ts'

export default tseslint.config(
  { ignores: ['**/node_modules/', '**/dist/', 'data/', 'e2e/artifacts/', 'e2e/test-results/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      // Operational output goes through the logger; the CLI and start-up use stderr.
      'no-console': ['error', { allow: ['error', 'warn'] }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    // A feature reaches others only through what they share in components/ and lib/.
    files: ['apps/web/src/features/*/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^\\.\\./[^.]', message: 'No imports across features: move what both need to components/ or lib/.' }] },
      ],
    },
  },
  {
    // Browser tests take `test` from support/test.ts, which closes the contexts a test opened itself.
    files: ['e2e/tests/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@playwright/test',
              importNames: ['test'],
              message: "Use test from '../support/test.ts': it closes the browser contexts the test opened.",
            },
          ],
        },
      ],
    },
  },
  {
    // The server's imports flow one way (docs/decisions/092): routes → use
    // cases → the engine, repositories and views → db/; and the SQL of a
    // module is in its repositories (093).
    files: ['apps/server/src/**/*.ts'],
    ignores: ['**/*.test.ts', 'apps/server/src/testing/**'],
    plugins: { pactum: { rules: { 'server-layers': serverLayersRule, 'sql-in-repositories': sqlInRepositoriesRule } } },
    rules: { 'pactum/server-layers': 'error', 'pactum/sql-in-repositories': 'error' },
  },
)
