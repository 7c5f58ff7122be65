import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'action/', 'node_modules/', 'coverage/', '.bench-tmp/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', URL: 'readonly', Buffer: 'readonly', AbortController: 'readonly', performance: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', TextEncoder: 'readonly' },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // CommonJS on purpose: the bin and a bench script (see bin/pushctl.cjs for why).
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', module: 'writable', __dirname: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Libraries under src/ take what they need as arguments; only the CLI edge touches process.
    files: ['src/message/**', 'src/client/**', 'src/emulator/**'],
    rules: {
      'no-restricted-imports': ['error', { paths: ['chalk', 'ora', 'commander'] }],
      'no-restricted-globals': ['error', 'process'],
    },
  },
);
