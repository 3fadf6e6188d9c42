import type { Request } from 'express';
import { ProblemError } from '../src/errors/problem.ts';
import { defineHandler, requirePrincipal } from '../src/http/handler.types.ts';

/**
 * The origin in the URLs the agent is shown: the one it reached the service by, or the service's
 * public URL when the request's Host names no host (HTTP/1.0 without one, or bytes no URL takes).
 */
function shownOrigin(req: Request, publicUrl: string): string {
  const host = req.get('host');
  if (!host) return publicUrl;
  try {
    return new URL(`${req.protocol}://${host}`).origin;
  } catch {
    return publicUrl;
  }
}

// The MCP SDK loads with the first message, not with the service.
export default defineHandler('mcpMessage', async (ctx) => {
  // The tools call the API with the caller's Authorization: a session cookie or the local gateway
  // would leave them without credentials, so only an API key opens the endpoint.
  if (requirePrincipal(ctx).method !== 'api_key')
    throw new ProblemError('unauthorized', { detail: 'The MCP endpoint takes an API key: send Authorization: Bearer <key>.' });
  const { answerMcpMessage } = await import('../src/mcp/http.ts');
  const answer = await answerMcpMessage(ctx.req, ctx.body, shownOrigin(ctx.req, ctx.deps.config.signIn.publicUrl));
  // The transport refuses a message the protocol does not allow with a JSON-RPC error of its own; the
  // contract's refusals are problems, so it is told as one, with the transport's reason.
  if (answer.status >= 400) {
    let reason = `the MCP transport answered ${answer.status}`;
    try {
      reason = (JSON.parse(answer.body.toString('utf8')) as { error?: { message?: string } }).error?.message ?? reason;
    } catch {
      // not JSON: the status says it
    }
    throw new ProblemError('validation_failed', {
      detail: `The body is not a JSON-RPC message the MCP server takes: ${reason}`,
      issues: [{ path: 'body', message: reason, keyword: 'jsonrpc' }],
    });
  }
  ctx.res.status(answer.status).set({ ...answer.headers, 'Cache-Control': 'no-store' });
  ctx.res.end(answer.body);
});
