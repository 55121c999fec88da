// @ts-check
import js from '@eslint/js'
import tseslint from 'typescript-eslint'

/**
 * The HTTP facts of src/http/ that import no node: module (methods, bodiless answers, reason phrases, the
 * request target): the lowest room, which the engine and the transports that run in browsers import too.
 */
const RUNTIME_NEUTRAL_HTTP = ['methods', 'bodiless-answers', 'reason-phrases', 'request-target']
/** What the contract suite, the proxy and their helpers never import: they see the API over HTTP only. */
const MOCK_INTERNALS = ['**/domain/*', '**/engine/*', '**/mock-instance/*', '**/server/*', '**/seed/*', 'fastify']

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'coverage/',
      '.venv/',
      'node_modules/',
      'out/',
      '.tools/',
      'src/spec/users-api.ts',
      'src/spec/generated/',
      'src/seed/generated/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        fetch: 'readonly',
        performance: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/utils', '**/utils.js'], message: 'Name a module for what it holds.' }] },
      ],
    },
  },
  {
    // STYLE.md: the domain knows nothing of HTTP or faker, nor of the runtime.
    files: ['src/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            'fastify',
            '@fastify/*',
            '@faker-js/*',
            'node:*',
            '**/engine/*',
            '**/server/*',
            '**/seed/*',
            '**/cli/*',
          ],
        },
      ],
    },
  },
  {
    // STYLE.md: the engine, the mock instance and the fetch and MSW transports run in browsers, Deno, Bun
    // and workers too: no Fastify, no node: module, nothing of the server or the CLI.
    files: [
      'src/engine/**/*.ts',
      'src/mock-instance/**/*.ts',
      'src/fetch/**/*.ts',
      'src/msw/**/*.ts',
      'src/webhooks/**/*.ts',
      'src/streams/**/*.ts',
    ],
    // What Node alone loads (package.json's `node` condition): it reads the kit's package.json to say
    // which msw to install.
    ignores: ['src/msw/node.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            'fastify',
            '@fastify/*',
            'node:*',
            '**/server/*',
            '**/cli/*',
            '**/files/*',
            '**/contract/**',
            '**/http/*',
            ...RUNTIME_NEUTRAL_HTTP.map((name) => `!**/http/${name}.js`),
            '**/text/*',
          ],
        },
      ],
    },
  },
  {
    // STYLE.md: the contract suite sees the API only over HTTP, as a real backend's tests would; so does
    // the proxy, which judges another backend's answers and must not borrow the mock's rules to do it, and
    // the helpers they share.
    files: [
      'src/contract/**/*.ts',
      'contract-tests/**/*.ts',
      'src/fuzz/**/*.ts',
      'src/proxy/**/*.ts',
      'src/http/**/*.ts',
      'src/text/**/*.ts',
    ],
    rules: {
      'no-restricted-imports': ['error', { patterns: MOCK_INTERNALS }],
      // The suite's settings, the target's tokens among them, go to its workers by vitest's provide
      // (src/contract/run/suite-settings.ts): the environment would hand them to every child process too.
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "AssignmentExpression > MemberExpression.left[object.object.name='process'][object.property.name='env']",
          message: 'Pass settings by vitest provide/inject or as arguments, not through process.env.',
        },
        {
          selector:
            "CallExpression[callee.object.name='Object'][callee.property.name='assign'] > MemberExpression.arguments:first-child[object.name='process'][property.name='env']",
          message: 'Pass settings by vitest provide/inject or as arguments, not through process.env.',
        },
      ],
    },
  },
  {
    // The neutral facts stay neutral: nothing of node, nor of the rest of src/http/, which may use node.
    files: RUNTIME_NEUTRAL_HTTP.map((name) => `src/http/${name}.ts`),
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: ['node:*', './*', ...RUNTIME_NEUTRAL_HTTP.map((name) => `!./${name}.js`), '../*'],
        },
      ],
    },
  },
)
