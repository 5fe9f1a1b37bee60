// `npm run lint`: ESLint (typescript-eslint, react-hooks) with Prettier owning the layout.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'dist-cli/',
      'reports/',
      'test-results/',
      'bench/out/',
      'public/',
      'src/core/formats/jsonl-scan/scan.wasm.ts',
      'src/core/formats/jsonl-scan/scan.as.ts',
      'src/core/dataset/find.wasm.ts',
      'src/core/dataset/find.as.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.worker, ...globals.node } },
    rules: {
      // `_name` marks a value kept on purpose (a destructured field left out, a callback's unused argument).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/ui/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    // DESIGN.md: src/core is pure TypeScript; it imports nothing from the layers above it, nor React.
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/ui/**', '**/store/**', '**/runtime/**', '**/app/**', '**/engine/**', '**/cli/**', '**/ui', '**/store', '**/engine', '**/app'],
              message: 'src/core imports nothing from the layers above it',
            },
            { group: ['react', 'react-dom', 'zustand', 'recharts', 'monaco-editor', '@monaco-editor/*'], message: 'src/core does not use UI libraries' },
          ],
        },
      ],
    },
  },
  prettier,
);
