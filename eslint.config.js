import js from '@eslint/js'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'

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
    // The server's imports flow one way: routes (http/) → use cases (services/,
    // jobs/, outbox/) → the engine and its repositories (transactions/,
    // ledger/) → db/. A lower layer never reaches up (docs/decisions/092).
    files: ['apps/server/src/{services,jobs,outbox,transactions,ledger,db}/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: '(^|/)http/', message: 'Routes call use cases, never the other way round.' }] }],
    },
  },
  {
    files: ['apps/server/src/{transactions,ledger}/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '(^|/)http/', message: 'Routes call use cases, never the other way round.' },
            { regex: '(^|/)(services|jobs|outbox)/', message: 'The engine is called by use cases and jobs; it never calls them.' },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/server/src/db/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^\\.\\./(http|services|jobs|outbox|transactions|ledger)/', message: 'db/ is the bottom layer: it imports nothing above it.' }] },
      ],
    },
  },
)
