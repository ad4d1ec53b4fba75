// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import prettier from 'eslint-config-prettier';
import { localRules } from './scripts/eslint-no-cycle.mjs';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The module graph points one way: entry -> app (composition root) -> modules -> kernel ->
 * shared / config / db. The pure engines import only src/shared and each other's engines;
 * payment imports no module that owns payable items. docs/design/architecture.md explains why.
 */
const below = (target, from, message, except) => ({ target, from, message, ...(except ? { except } : {}) });
const MAX_LEN = ['error', { code: 140, ignoreUrls: true, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true }];
const ITEM_OWNERS = ['booking', 'catalog', 'client', 'availability', 'scheduling', 'pricing', 'promocode', 'giftcard'].map(
  (m) => `./src/modules/${m}`,
);
/** Plugins: reached only through the registry and the kernel's contracts (codes, payables), never imported by another module. */
const PLUGINS = ['promocode', 'giftcard', 'subscription', 'document', 'webhook', 'audit', 'calendar', 'notification'];
const MODULES = readdirSync(join(import.meta.dirname, 'src', 'modules'), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);
const pluginZones = PLUGINS.map((plugin) => ({
  target: MODULES.filter((m) => m !== plugin).map((m) => `./src/modules/${m}`),
  from: `./src/modules/${plugin}`,
  message: `nothing but the registry imports the ${plugin} module; other modules reach it through kernel contracts`,
}));

/**
 * One way to hold a transaction (docs/design/architecture.md, "Transactions"): the context
 * carries it. Only `inTransaction` (src/kernel/transaction.ts) opens one (migrations and the
 * database's function files, src/db, run before any context exists); a module's functions take
 * `ctx` and read `ctx.em`, never an EntityManager of their own.
 */
const ONE_TRANSACTION_API = [
  {
    selector: 'CallExpression[callee.property.name=/^(transactional|begin)$/]',
    message: 'open transactions with inTransaction(ctx, async (tx) => ...) from src/kernel/transaction.ts',
  },
];
const CTX_NOT_EM = [
  {
    selector: ":matches(:function, TSMethodSignature, TSFunctionType, TSDeclareFunction) > Identifier.params[name='em']",
    message: 'take ctx (first) and read ctx.em, not an EntityManager parameter',
  },
  {
    selector:
      ':matches(:function, TSMethodSignature, TSFunctionType, TSDeclareFunction) > Identifier.params > TSTypeAnnotation > TSTypeReference[typeName.name=/^(Sql)?EntityManager$/]',
    message: 'take ctx (first) and read ctx.em, not an EntityManager parameter',
  },
  {
    selector: "ObjectExpression > SpreadElement[argument.name='ctx'] ~ Property[key.name='em']",
    message: 'a context with another EntityManager is made by inTransaction only',
  },
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.data/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    plugins: { 'import-x': importX, local: localRules },
    settings: {
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
    },
    rules: {
      // import-x/no-cycle cannot see cycles made of type-only imports; local/no-cycle sees every import
      'local/no-cycle': 'error',
      'import-x/no-self-import': 'error',
      'import-x/no-duplicates': 'error',
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            below(
              './src/modules',
              ['./src/app', './src/main.ts', './src/cli.ts', './src/scripts'],
              'modules are wired by the composition root, never the other way',
            ),
            below('./src/kernel', ['./src/modules', './src/app', './src/db'], 'the kernel imports no module and no composition code'),
            below(
              './src/shared',
              ['./src/modules', './src/kernel', './src/app', './src/db', './src/config'],
              'src/shared is the bottom layer',
            ),
            below(
              './src/config',
              ['./src/modules', './src/kernel', './src/app', './src/db'],
              'configuration takes what it needs as parameters',
            ),
            below('./src/db', ['./src/modules', './src/kernel', './src/app'], 'the database layer knows no module'),
            below(
              './src/modules/availability/engine',
              ['./src/modules', './src/kernel', './src/app', './src/db', './src/config'],
              'the availability engine is pure: shared and engines only',
              ['./availability/engine', './pricing/engine'],
            ),
            below(
              './src/modules/pricing/engine',
              ['./src/modules', './src/kernel', './src/app', './src/db', './src/config'],
              'the pricing engine is pure: shared and engines only',
              ['./pricing/engine'],
            ),
            below(
              './src/modules/payment',
              ITEM_OWNERS,
              'payment settles items through the handlers their modules register (kernel/payable.ts)',
            ),
            ...pluginZones,
          ],
        },
      ],
      '@typescript-eslint/no-explicit-any': 'error',
      // Input guards refuse NUL and other control characters on purpose, with regular expressions.
      'no-control-regex': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // Entity lists and the module contract hold classes; `Function` is the honest type there.
      '@typescript-eslint/no-unsafe-function-type': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { module: 'writable', require: 'readonly', __dirname: 'readonly', process: 'readonly' },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Tests read loosely typed JSON answers.
    files: ['test/**/*.ts', 'src/**/*.test.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/kernel/transaction.ts', 'src/db/**'],
    rules: { 'no-restricted-syntax': ['error', ...ONE_TRANSACTION_API] },
  },
  {
    files: ['src/modules/**/*.ts'],
    rules: { 'no-restricted-syntax': ['error', ...ONE_TRANSACTION_API, ...CTX_NOT_EM] },
  },
  prettier,
  // eslint-config-prettier turns max-len off; comments and long literals still need it.
  {
    files: ['**/*.ts'],
    rules: { 'max-len': MAX_LEN },
  },
);
