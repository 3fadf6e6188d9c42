import { defineHandler, sendJson } from '../src/http/handler.types.ts';

export default defineHandler('getAuthConfig', (ctx) => {
  const { config } = ctx.deps;
  sendJson(
    ctx,
    200,
    { mode: config.localMode ? 'local' : 'hosted', providers: [], session: null, localGateway: false },
    { 'Cache-Control': 'no-store' },
  );
});
