// @ts-check
import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const outside = (...folders) =>
  folders.map((folder) => ({
    group: [`**/${folder}/**`, `**/${folder}`],
    message: `Import boundary: this layer must not import ${folder}/ (see DESIGN.md section 3).`,
  }));

export default tseslint.config(
  { ignores: ['node_modules', 'web/dist', 'cdk.out', '.local', 'coverage', 'test-results'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-floating-promises': 'error',
      // Lambda handlers and triggers are async by contract, whether or not they await.
      '@typescript-eslint/require-await': 'off',
      'no-console': 'error',
      eqeqeq: 'error',
    },
  },
  {
    files: ['shared/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['../*', '../**'], message: 'shared/ imports nothing local.' }] },
      ],
    },
  },
  {
    files: ['lambdas/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: outside('web', 'infra', 'bin') }] },
  },
  {
    files: ['web/**'],
    languageOptions: { globals: { ...globals.browser } },
    rules: { 'no-restricted-imports': ['error', { patterns: outside('lambdas', 'infra', 'bin') }] },
  },
  {
    files: ['web/**/*.{ts,tsx}', 'test/unit/web/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat.recommended,
  },
  {
    files: ['infra/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: outside('web', 'bin') }] },
  },
  {
    files: ['bin/**', 'test/**', 'infra/local/**', 'scripts/**'],
    rules: { 'no-console': 'off' },
  },
  {
    files: ['*.js', '*.config.ts'],
    ...tseslint.configs.disableTypeChecked,
  },
);
