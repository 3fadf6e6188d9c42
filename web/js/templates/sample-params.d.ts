// Types of sample-params.js for the tests that import it (the web app itself is plain JS).

export function sampleParams(template: {
  variables?: { properties?: Record<string, { examples?: unknown[]; default?: unknown }> };
}): Record<string, unknown>;
