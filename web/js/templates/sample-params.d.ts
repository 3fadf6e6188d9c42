// Types of sample-params.js for the tests that import it (the web app itself is plain JS).

export interface WithVariables {
  variables?: { properties?: Record<string, { examples?: unknown[]; default?: unknown; [k: string]: unknown }>; [k: string]: unknown };
}
export function sampleParams(template: WithVariables | null | undefined): Record<string, unknown>;
export function setSample<T extends WithVariables>(template: T, name: string, value: unknown): T;
