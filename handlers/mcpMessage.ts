import { ProblemError } from '../src/errors/problem.ts';
import { defineHandler, requirePrincipal } from '../src/http/handler.types.ts';

// The MCP SDK loads with the first message, not with the service.
export default defineHandler('mcpMessage', async (ctx) => {
  // The tools call the API with the caller's Authorization: a session cookie or the local gateway
  // would leave them without credentials, so only an API key opens the endpoint.
  if (requirePrincipal(ctx).method !== 'api_key')
    throw new ProblemError('unauthorized', { detail: 'The MCP endpoint takes an API key: send Authorization: Bearer <key>.' });
  const { answerMcpMessage } = await import('../src/mcp/http.ts');
  const answer = await answerMcpMessage(ctx.req, ctx.body, `${ctx.req.protocol}://${ctx.req.get('host')}`);
  ctx.res.status(answer.status).set({ ...answer.headers, 'Cache-Control': 'no-store' });
  ctx.res.end(answer.body);
});
