// ESLint 9 flat config for the SPA. `npm run lint` = tsc + this, zero warnings (make test, land.sh).
// Rule set: typescript-eslint recommended-type-checked, react-hooks recommended (incl. the React
// Compiler checks), jsx-a11y recommended, and the layer boundaries of docs/spa.md written as
// no-restricted-imports blocks. A rule switched off or relaxed below says why on its line.
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const TS = ['src/**/*.{ts,tsx}'];

// ---- layer boundaries ---------------------------------------------------------------------------
// features/<x> imports only itself, @/components, @/lib, @/testing (never @/app, never another
// feature); components/ and lib/ import no feature and nothing from app/; lib/ imports no component.
const APP = { group: ['@/app', '@/app/*', '@/main'], message: 'Only src/app composes the application: move what you need into lib/ or components/.' };
const ANY_FEATURE = { group: ['@/features', '@/features/*'], message: 'Shared code imports no feature: move the shared part into components/ or lib/.' };
const UP_TO_SRC = (depth) => ({
  regex: `^(\\.\\./){${depth},}`,
  message: 'Leave your folder with an @/ import (@/components, @/lib), not a relative path.',
});

const restrict = (files, patterns) => ({ files, rules: { 'no-restricted-imports': ['error', { patterns }] } });

const features = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);

const layerBlocks = [
  restrict(['src/components/**/*.{ts,tsx}'], [APP, ANY_FEATURE, UP_TO_SRC(2)]),
  restrict(['src/lib/**/*.{ts,tsx}'], [
    APP,
    ANY_FEATURE,
    { group: ['@/components', '@/components/*'], message: 'lib/ is below components/: it imports no component.' },
  ]),
  // One block per feature and folder depth: a relative import may not climb out of the feature.
  ...features.flatMap((name) =>
    [0, 1, 2, 3].map((depth) =>
      restrict(
        [`src/features/${name}/${'*/'.repeat(depth)}*.{ts,tsx}`],
        [
          APP,
          {
            regex: `^@/features/(?!${name}(/|$))`,
            message: `A feature imports only itself, @/components, @/lib and @/testing: share through components/ or lib/.`,
          },
          UP_TO_SRC(depth + 1),
        ],
      ),
    ),
  ),
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'src/lib/api/schema.d.ts'] },
  // An eslint-disable comment that disables nothing is an error: every one left in src is needed.
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  {
    files: TS,
    extends: [js.configs.recommended, ...tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      ecmaVersion: 2023,
      globals: { ...globals.browser },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs['recommended-latest'].rules,
      'react-hooks/exhaustive-deps': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      // An event handler that returns a promise (onClick={save}) is the React idiom; the returned
      // promise is still checked by no-floating-promises wherever it is not handed to JSX.
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      // lib/api/http.ts rejects with ApiError, a plain object that RTK Query keeps in the store.
      '@typescript-eslint/only-throw-error': ['error', { allow: [{ from: 'file', name: 'ApiError', path: 'src/lib/api/errors.ts' }] }],
      // react-router's navigate() may return a promise (data routers only; this app uses none).
      '@typescript-eslint/no-floating-promises': ['error', { allowForKnownSafeCalls: [
        { from: 'package', name: 'NavigateFunction', package: 'react-router' },
        // act() of React 19 returns a thenable even for a synchronous callback.
        { from: 'package', name: 'act', package: 'react' },
      ] }],
      'no-console': ['error', { allow: ['warn', 'error'] }],
      eqeqeq: ['error', 'smart'],
    },
  },
  { files: TS, ...jsxA11y.flatConfigs.recommended },
  {
    files: TS,
    rules: {
      // MUI inputs take autoFocus as a prop (focus on the first field of a sign-in form or dialog);
      // a raw DOM autoFocus is still an error.
      'jsx-a11y/no-autofocus': ['error', { ignoreNonDOM: true }],
    },
  },
  {
    files: ['src/**/*.test.{ts,tsx}', 'src/testing/**'],
    languageOptions: { globals: { ...globals.browser, ...globals.node, ...globals.vitest } },
    rules: {
      // expect(mock.fn).toHaveBeenCalled() passes a method by reference on purpose.
      '@typescript-eslint/unbound-method': 'off',
      // A mock of an async function (vi.fn(async () => answer)) is async without awaiting anything.
      '@typescript-eslint/require-await': 'off',
      // Tests read JSON.parse(...) and mock.calls (typed any) to assert on them.
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
    },
  },
  ...layerBlocks,
);
