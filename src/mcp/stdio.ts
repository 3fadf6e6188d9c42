// `render-service mcp`: the MCP server over standard input and output, for desktop agents. Its tools
// call the service at RENDER_SERVICE_URL with the key in RENDER_SERVICE_KEY, as any API client does.
// Standard output carries the protocol alone: anything else goes to standard error.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createMcpServer } from './tools.ts';

export const SERVICE_URL_ENV = 'RENDER_SERVICE_URL';
export const SERVICE_KEY_ENV = 'RENDER_SERVICE_KEY';
export const DEFAULT_SERVICE_URL = 'http://127.0.0.1:8080';

/** Serves until standard input closes; resolves then. Throws a message for a setting that cannot work. */
export async function serveStdio(env: NodeJS.ProcessEnv): Promise<void> {
  const url = env[SERVICE_URL_ENV]?.trim() || DEFAULT_SERVICE_URL;
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('not http');
  } catch {
    throw new Error(`${SERVICE_URL_ENV} must be an http or https URL (got "${url}")`);
  }
  const key = env[SERVICE_KEY_ENV]?.trim();
  if (!key)
    process.stderr.write(`render-service mcp: ${SERVICE_KEY_ENV} is not set: only the public operations (the generators) will work\n`);
  const server = createMcpServer({ apiUrl: url, publicUrl: url, authorization: key ? `Bearer ${key}` : undefined });
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
    process.stdin.once('end', resolve);
  });
  await server.connect(transport);
  await closed;
  await server.close();
}
