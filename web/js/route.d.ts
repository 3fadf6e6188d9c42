// Types of route.js for the tests that import it (the web app itself is plain JS).
export function parseRoute(hash: string): { name: string; arg: string | undefined };
export function queryOf(hash: string): URLSearchParams;
