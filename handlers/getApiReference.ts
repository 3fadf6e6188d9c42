import { sendRepresentation } from '../src/http/conditional-request.ts';
import { defineHandler } from '../src/http/handler.types.ts';

// Redoc renders /v1/openapi.json from our own copy of its bundle: no CDN, no fonts, no telemetry.
const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Render Service API reference</title>
<style>body { margin: 0; font-family: system-ui, sans-serif; }</style>
</head>
<body>
<div id="reference"></div>
<script src="/assets/redoc.standalone.js"></script>
<script>
Redoc.init('/v1/openapi.json', { hideDownloadButton: false, expandResponses: '200,201,202', jsonSampleExpandLevel: 3, theme: { typography: { fontFamily: 'system-ui, sans-serif', headings: { fontFamily: 'system-ui, sans-serif' } } } }, document.getElementById('reference'));
</script>
</body>
</html>
`;

export default defineHandler('getApiReference', (ctx) => {
  sendRepresentation(ctx.req, ctx.res, 200, 'text/html; charset=utf-8', PAGE, {
    'Cache-Control': 'public, max-age=300',
    'Content-Security-Policy':
      "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; worker-src 'self' blob:; font-src 'self'; connect-src 'self'",
  });
});
