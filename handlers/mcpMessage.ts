import { defineHandler, requirePrincipal } from '../src/http/handler.types.ts';

// The MCP SDK loads with the first message, not with the service.
export default defineHandler('mcpMessage', async (ctx) => {
  requirePrincipal(ctx);
  const { answerMcpMessage } = await import('../src/mcp/http.ts');
  const answer = await answerMcpMessage(ctx.req, ctx.body, `${ctx.req.protocol}://${ctx.req.get('host')}`);
  ctx.res.status(answer.status).set({ ...answer.headers, 'Cache-Control': 'no-store' });
  ctx.res.end(answer.body);
});
