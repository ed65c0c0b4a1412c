import js from '@eslint/js'
import tseslint from 'typescript-eslint'

const NETWORK_MODULES = ['node:http', 'node:http2', 'node:net', 'node:tls', 'http', 'http2', 'net', 'tls', '@kubernetes/client-node']
const NETWORK_MESSAGE = 'only src/cluster/ opens sockets or calls the API server: put the network part there and keep the pure part here'

// Every write to the terminal goes through src/util/output.ts, which makes control characters visible.
const OUTPUT_MESSAGE =
  'write through src/util/output.ts (writeStdout, writeStderr, or Session.print): text from a cluster, bundle or profile must not reach the terminal raw'
const RAW_OUTPUT = [
  { selector: "CallExpression[callee.object.name='console']", message: OUTPUT_MESSAGE },
  { selector: "MemberExpression[object.object.name='process'][object.property.name=/^(stdout|stderr)$/][property.name='write']", message: OUTPUT_MESSAGE },
]
const NETWORK_SYNTAX = [
  ...NETWORK_MODULES.map((name) => ({ selector: `ImportExpression[source.value='${name}']`, message: NETWORK_MESSAGE })),
  // Built-ins loaded on first use (for a faster start) are held to the same boundary.
  ...NETWORK_MODULES.map((name) => ({
    selector: `CallExpression[callee.property.name='getBuiltinModule'][arguments.0.value='${name}']`,
    message: NETWORK_MESSAGE,
  })),
]

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.cluster/**', 'coverage/**', 'tools/**', 'examples/**', 'release/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        Buffer: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // What the type checker can see: a promise dropped or handed where a void callback is expected loses its
    // error (an unhandled rejection, or a report written after the process ends).
    files: ['src/**/*.ts'],
    // The lint tests (network-boundary, output-guard) lint made-up files such as src/rules/x.ts: typed by a default project.
    languageOptions: { parserOptions: { projectService: { allowDefaultProject: ['src/*/x.ts'] }, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      // A field read from `any` is a field nobody checked: objects have typed views (src/snapshot/kinds.ts),
      // a stranger's JSON is read step by step (src/util/json-path.ts).
      '@typescript-eslint/no-unsafe-member-access': 'error',
    },
  },
  {
    // Only src/cluster/ (and the entry points) open sockets or call the API server: rules, renderers and use
    // cases read a snapshot, so "they never touch the network" is checked here rather than kept by habit.
    files: ['src/**/*.ts'],
    ignores: ['src/cluster/**', 'src/entry/main.ts', 'src/entry/framework.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: NETWORK_MODULES.map((name) => ({ name, message: NETWORK_MESSAGE })) }],
      'no-restricted-syntax': ['error', ...NETWORK_SYNTAX, ...RAW_OUTPUT],
    },
  },
  {
    // The files the network rule leaves out are held to the output guard all the same.
    files: ['src/cluster/**/*.ts', 'src/entry/main.ts', 'src/entry/framework.ts'],
    rules: { 'no-restricted-syntax': ['error', ...RAW_OUTPUT] },
  },
  {
    // The guard itself is the one place that writes.
    files: ['src/util/output.ts'],
    rules: { 'no-restricted-syntax': ['error', ...NETWORK_SYNTAX] },
  },
  {
    // The entry points are CommonJS (bin/package.json): Node 20 starts a script faster than a module.
    files: ['bin/**'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', __dirname: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
)
