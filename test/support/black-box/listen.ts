// Stand-ins (a webhook receiver, an identity provider, Stripe's API, the FFmpeg tracer) and test
// servers listen on a free loopback port: one way, here.
import type { AddressInfo, Server } from 'node:net';

/** Listens on 127.0.0.1 on a free port; resolves with the port once listening. */
export async function listenOnLoopback(server: Server): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  return (server.address() as AddressInfo).port;
}
