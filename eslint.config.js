import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { readdirSync } from 'node:fs';

/**
 * The one-way layers of src/ (STYLE.md), top to bottom. A file may import from its own layer or any layer
 * below it, never from one above: data flows argv → options → settings + message → client → outcome → output.
 * Within the middle group the order is output → input → journal → settings, so no two folders import each other.
 */
const LAYERS = [
  { name: 'entries (main, cli, lib, action)', files: ['src/{main,cli,lib}.ts', 'src/cli-*.ts', 'src/action/**'] },
  { name: 'commands', files: ['src/commands/**'] },
  { name: 'output', files: ['src/output/**'] },
  { name: 'input', files: ['src/input/**'] },
  { name: 'journal', files: ['src/journal/**'] },
  { name: 'settings', files: ['src/settings/**'] },
  { name: 'client and emulator', files: ['src/client/**', 'src/emulator/**'] },
  { name: 'message', files: ['src/message/**'] },
];

const layerZones = LAYERS.flatMap((layer, i) =>
  LAYERS.slice(0, i).map((above) => ({
    target: layer.files,
    from: above.files,
    message: `${layer.name} may not import ${above.name}: imports go down the layers only (see eslint.config.js and STYLE.md).`,
  })),
);

/** The function-length rule: 80 lines, blank lines and comments not counted, IIFEs counted as functions. */
const MAX_FUNCTION_LINES = { max: 80, skipBlankLines: true, skipComments: true, IIFEs: true };

/**
 * The commands (STYLE.md, "The shape to move to"): a folder each, src/commands/<name>/ with options.ts, define.ts
 * and run.ts. No command imports another; what two commands share lives in commands/shared/, which imports none
 * of them. The exceptions say why: a dry run is a send with "dry_run": true (send's schema and code), and
 * `pushctl mcp` serves validate, send, dry-run and runs as tools (their own code, loaded from their files).
 */
const COMMANDS = readdirSync(new URL('./src/commands/', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && entry.name !== 'shared')
  .map((entry) => entry.name);
const MAY_IMPORT = { 'dry-run': ['send'], mcp: ['validate', 'runs', 'send'] };
const commandZones = [
  ...COMMANDS.map((name) => ({
    target: [`src/commands/${name}/**`],
    from: COMMANDS.filter((other) => other !== name && !(MAY_IMPORT[name] ?? []).includes(other)).map((other) => `src/commands/${other}/**`),
    message: 'no command imports another command: move what they share to src/commands/shared/.',
  })),
  { target: ['src/commands/shared/**'], from: COMMANDS.map((name) => `src/commands/${name}/**`), message: 'commands/shared/ serves the commands and imports none of them.' },
  // cli.ts lists the commands' define modules; their code (run.ts and below) loads only when one runs.
  { target: ['src/{main,cli}.ts', 'src/cli-*.ts'], from: COMMANDS.flatMap((name) => [`src/commands/${name}/run.ts`, `src/commands/${name}/options.ts`]), message: 'cli.ts imports only define.ts: a command\'s options schema and code load when it runs.' },
];

const siblingZones = [
  { target: ['src/client/**'], from: ['src/emulator/**'], message: 'the client and the emulator are siblings: share code through src/message/ instead.' },
  { target: ['src/emulator/**'], from: ['src/client/**'], message: 'the client and the emulator are siblings: share code through src/message/ instead.' },
  // Primitives (src/*.ts other than the entries) import nothing of the layers.
  { target: ['src/{errors,context,suggest,version,read-whole-file,list-dir,shell-quote,reword,given-value}.ts'], from: LAYERS.flatMap((l) => l.files), message: 'a primitive imports no layer.' },
  ...commandZones,
];

export default tseslint.config(
  { ignores: ['dist/', 'action/', 'node_modules/', 'coverage/', '.bench-tmp/', '.node24/', '.mcp-inspector/'] },
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
    // The layer rule resolves every import to its file (`.js` specifiers to the `.ts` sources), so an arrow
    // that goes up fails `npm run lint` (test/unit/architecture/layers.test.ts proves it does).
    files: ['src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })] },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: [...layerZones, ...siblingZones] }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      // No function over 80 lines (STYLE.md): compose small parts instead. Blank lines and comments are not
      // counted, so the rule never asks for a comment that says why to be cut
      // (test/unit/architecture/function-length.test.ts proves it rejects an 81-line function).
      'max-lines-per-function': ['error', MAX_FUNCTION_LINES],
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
