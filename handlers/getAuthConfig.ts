import { defineHandler, sendJson } from '../src/http/handler.types.ts';

export default defineHandler('getAuthConfig', async (ctx) => {
  const { config, services } = ctx.deps;
  const session = await services.auth.currentSession(ctx.req);
  sendJson(
    ctx,
    200,
    {
      mode: config.localMode ? 'local' : 'hosted',
      providers: services.auth.providers(),
      session: session ? { user: session.user, expiresAt: new Date(session.expiresAt).toISOString() } : null,
      localGateway: config.localGateway,
    },
    { 'Cache-Control': 'no-store' },
  );
});
