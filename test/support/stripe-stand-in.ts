// A local stand-in for the part of Stripe's API the service calls (Checkout Sessions), so the
// real Stripe SDK runs against it over HTTP. It records what it was sent.
import http from 'node:http';
import { listenOnLoopback } from './black-box/listen.ts';

export interface StandInRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  form: URLSearchParams;
}

export interface StripeStandIn {
  url: string;
  requests: StandInRequest[];
  /** Make the next calls fail with this HTTP status (0 = succeed). */
  failWith: number;
  close(): Promise<void>;
}

export async function startStripeStandIn(): Promise<StripeStandIn> {
  let counter = 0;
  const state: StripeStandIn = { url: '', requests: [], failWith: 0, close: async () => {} };
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const form = new URLSearchParams(body);
      state.requests.push({ method: req.method!, path: req.url!, headers: req.headers, form });
      res.setHeader('Content-Type', 'application/json');
      if (state.failWith) {
        res.statusCode = state.failWith;
        res.end(JSON.stringify({ error: { type: 'api_error', message: 'stand-in failure' } }));
        return;
      }
      if (req.method === 'POST' && req.url === '/v1/checkout/sessions') {
        const id = `cs_test_${++counter}`;
        res.end(
          JSON.stringify({
            id,
            object: 'checkout.session',
            url: `https://checkout.stripe.com/c/pay/${id}`,
            mode: form.get('mode'),
            client_reference_id: form.get('client_reference_id'),
            metadata: { purchase_id: form.get('metadata[purchase_id]'), workspace_id: form.get('metadata[workspace_id]') },
            payment_status: 'unpaid',
          }),
        );
        return;
      }
      res.statusCode = 404;
      res.end(JSON.stringify({ error: { type: 'invalid_request_error', message: `no stand-in for ${req.method} ${req.url}` } }));
    });
  });
  state.url = `http://127.0.0.1:${await listenOnLoopback(server)}`;
  state.close = () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
  return state;
}
