// The service's own MCP endpoint (POST /v1/mcp, handlers/mcpMessage.ts): Streamable HTTP in stateless
// mode — a server and a transport per request, no session — answering JSON (the transport's
// `enableJsonResponse`), which the protocol allows in place of an event stream. The tools call the
// service's HTTP API over loopback, at the address the request arrived on, with the caller's own
// Authorization: the same routing, checks, scopes, limits and charges as any other client's call.
import type { IncomingMessage } from 'node:http';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { createMcpServer } from './tools.ts';

/** The service's address as this connection reached it (an IPv4-mapped address as IPv4, IPv6 in brackets). */
export function loopbackUrl(req: IncomingMessage): string {
  const address = (req.socket.localAddress ?? '127.0.0.1').replace(/^::ffff:/, '');
  return `http://${address.includes(':') ? `[${address}]` : address}:${req.socket.localPort}`;
}

export interface McpAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/**
 * Answers one JSON-RPC message. `body` is the message the operations router already read and checked
 * against the contract; `publicUrl` is the origin the agent is shown in URLs.
 */
export async function answerMcpMessage(req: IncomingMessage, body: unknown, publicUrl: string): Promise<McpAnswer> {
  const server = createMcpServer({ apiUrl: loopbackUrl(req), publicUrl, authorization: req.headers.authorization });
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  try {
    await server.connect(transport);
    const headers = new Headers({
      // Answers are JSON whatever the client accepts besides (a client that only reads JSON works too).
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
    });
    const version = req.headers['mcp-protocol-version'];
    if (typeof version === 'string') headers.set('mcp-protocol-version', version);
    const response = await transport.handleRequest(new Request(`${publicUrl}/v1/mcp`, { method: 'POST', headers }), {
      parsedBody: body,
    });
    const answer: McpAnswer = { status: response.status, headers: {}, body: Buffer.from(await response.arrayBuffer()) };
    const type = response.headers.get('content-type');
    if (type) answer.headers['Content-Type'] = type;
    return answer;
  } finally {
    await transport.close();
    await server.close();
  }
}
