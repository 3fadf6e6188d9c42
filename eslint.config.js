// ESLint (flat config): typescript-eslint's recommended rules without type information (fast) and
// the layers as import boundaries. docs/architecture.md describes the layers. Import cycles are
// scripts/import-cycles.mjs's (type-only imports included, in a seventh of import-x/no-cycle's time).
import tseslint from 'typescript-eslint';
import { importX, createNodeResolver } from 'eslint-plugin-import-x';
import prettier from 'eslint-config-prettier';

/** The composition: they wire every layer together, so they may import anything. */
const ENTRY_POINTS = [
  'src/main.ts',
  'src/worker.ts',
  'src/memory-settings.ts',
  'src/compose.ts',
  'src/compose-admin.ts',
  'src/app.ts',
  'src/cli.ts',
  'src/admin.ts',
  'src/shutdown.ts',
];

// High to low. A module may import its own layer and the layers below it, never one above.
const LAYERS = [
  { name: 'entry points', paths: ENTRY_POINTS },
  { name: 'handlers', paths: ['handlers'] },
  // The MCP server (docs/mcp.md): a client of the HTTP API that reads the contract's schemas; nothing below it imports it.
  { name: 'mcp', paths: ['src/mcp'] },
  { name: 'http', paths: ['src/http'] },
  // Implementations of the services' small interfaces (Stripe, better-auth, rate-limit stores):
  // they import the interface they implement; services never import them (compose.ts wires them).
  { name: 'adapters', paths: ['src/adapters'] },
  { name: 'services and jobs', paths: ['src/services', 'src/jobs'] },
  { name: 'engine, db, blob', paths: ['src/engine', 'db', 'src/blob'] },
  // Uploaded files' checks and normalization (src/assets): pure functions of bytes and limits, which the engine's compositor may use.
  { name: 'assets', paths: ['src/assets'] },
  // A template drawn as a generator (the compositor): it draws from its inputs, the generators and the libs.
  { name: 'templates', paths: ['src/templates'] },
  // Below the engine that runs them: a generator draws from its inputs and the low-level libs alone.
  { name: 'generators', paths: ['src/generators'] },
  // The settings parser reads env into typed config with the libs' help; the libs never import settings.
  { name: 'config', paths: ['src/config'] },
  { name: 'low-level libs', paths: ['src/lib', 'src/errors', 'codegen'] },
];

/**
 * The web app's modules that hold its logic without the DOM (web/js/<name>.js), unit-tested in Node by
 * test/unit/web-*.test.ts; the other web modules build the pages on them.
 */
const WEB_LOGIC = ['api-rules', 'estimate', 'explore', 'field-text', 'formats', 'formatting', 'jobs', 'limits', 'param-values'].concat([
  'pictures',
  'preview-loop',
  'recipe',
  'recipe-file',
  'route',
  'share',
  'sizing',
  'snippets',
]);

const layerZones = LAYERS.slice(1).map((layer, i) => ({
  target: layer.paths,
  from: LAYERS.slice(0, i + 1).flatMap((higher) => higher.paths),
  message: `The ${layer.name} layer must not import from a higher layer (docs/architecture.md, "Layout").`,
}));

export default tseslint.config(
  // Builds, generated or vendored code, and a test run's own files (test-results/: `npm test` lints
  // while its run writes there), as scripts/import-cycles.mjs skips them.
  {
    ignores: [
      'node_modules/**',
      'web/dist/**',
      'dist/**',
      'dist-test/**',
      '.sdk-check/**',
      'codegen/**',
      'scripts/sdk-consumers/**',
      'test-results/**',
      'data/**',
    ],
  },
  {
    files: ['**/*.{ts,js,mjs}'],
    extends: [tseslint.configs.recommended],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js', '.mjs', '.json'] })],
      // Without these, import-x cannot read the modules a file imports.
      'import-x/extensions': ['.ts', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
    },
    rules: {
      // `_`-prefixed parameters are kept on purpose (interface shape, express's arity).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    // Tests may reach into any layer; only the product code keeps the boundaries.
    files: ['src/**/*.ts', 'handlers/**/*.ts', 'db/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: { 'import-x/no-restricted-paths': ['error', { zones: layerZones }] },
  },
  {
    // Pictures must not depend on the machine: V8's Math.sin, exp, pow, atan2 … (and `**`, which is
    // Math.pow) differ by an ulp between x86-64 and arm64; dmath computes the same bits everywhere.
    // The compositor (src/templates) draws pixels too, under the same rules.
    files: ['src/generators/**/*.ts', 'src/templates/**/*.ts'],
    ignores: ['**/*.test.ts', 'src/generators/lib/dmath.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        ...['sin', 'cos', 'tan', 'exp', 'expm1', 'log', 'log2', 'log10', 'log1p', 'pow', 'cbrt', 'sinh', 'cosh', 'tanh']
          .concat(['asin', 'acos', 'atan', 'atan2', 'asinh', 'acosh', 'atanh'])
          .map((property) => ({
            object: 'Math',
            property,
            message: 'Differs by an ulp between CPU architectures: use dmath (src/generators/lib/dmath.ts).',
          })),
        {
          object: 'Math',
          property: 'random',
          message: 'A picture depends on its seed only: use seededStream (src/generators/lib/random.ts).',
        },
        // Skia's text falls back to the machine's fonts (an emoji sequence reached the host's colour
        // emoji font): text is shaped by HarfBuzz and drawn as paths, never handed to Skia.
        ...['fillText', 'strokeText', 'measureText'].map((property) => ({
          property,
          message: "Skia's text can reach the machine's fonts: set text with drawLine/measureEm (src/generators/lib/text-setter.ts).",
        })),
      ],
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@napi-rs/canvas',
              importNames: ['GlobalFonts'],
              message: 'Generators register no fonts with Skia: text is drawn as paths (src/generators/lib/text-setter.ts).',
            },
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "BinaryExpression[operator='**'], AssignmentExpression[operator='**=']",
          message: '`**` is Math.pow, which differs between CPU architectures: use dmath.pow, or x * x.',
        },
      ],
    },
  },
  {
    // Frozen released code: changing it would change the bytes it promised (it renders the same only on x86-64, docs/superseded-versions.md).
    files: ['src/generators/releases/**'],
    rules: {
      'no-restricted-properties': 'off',
      'no-restricted-syntax': 'off',
      // …and it draws only with the libs as they were (releases/lib), never today's, which keep changing.
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./){2,}lib/',
              message: "A frozen version draws with src/generators/releases/lib/<commit>/, never with today's libs.",
            },
          ],
        },
      ],
    },
  },
  {
    // The acceptance tier is black-box: it drives the service as a customer or operator does (HTTP,
    // the CLI, processes, logs) and imports nothing from the product, only helpers that do not either.
    files: ['test/acceptance/**/*.ts', 'test/fault/**/*.ts', 'test/support/black-box/**/*.ts'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: ['test/acceptance', 'test/fault', 'test/support/black-box'],
              from: ['src', 'db', 'handlers', 'codegen', 'scripts', 'test/support'],
              except: ['./black-box'],
              message: 'The acceptance tier is black-box: import only from test/support/black-box (docs/tests.md).',
            },
          ],
        },
      ],
    },
  },
  {
    // The web app's logic, unit-tested in Node (docs/tests.md, "The browser test"): these modules
    // import no page module and touch no browser global, so a Node test runs them as the page does.
    files: WEB_LOGIC.map((name) => `web/js/${name}.js`),
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `^\\./(?!(${WEB_LOGIC.join('|')})\\.js$)`,
              message: 'Web logic imports only other web logic (eslint.config.js WEB_LOGIC): the page modules need the DOM.',
            },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        ...['window', 'document', 'location', 'history', 'navigator', 'localStorage', 'sessionStorage', 'fetch']
          .concat(['devicePixelRatio', 'matchMedia', 'EventSource', 'requestAnimationFrame', 'CSS', 'alert', 'confirm', 'prompt'])
          .map((name) => ({ name, message: 'Web logic takes what it needs from the page as arguments (it runs in Node too).' })),
      ],
    },
  },
  // Last: turns off the stylistic rules Prettier owns (`npm run format`; `npm run lint` checks it).
  prettier,
);
