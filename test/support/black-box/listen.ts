// Stand-ins (a webhook receiver, an identity provider, Stripe's API, the FFmpeg tracer) and test
// servers listen on a free loopback port: one way, here.
import { type AddressInfo, createServer, type Server } from 'node:net';

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

/** A loopback port free at the time of the call (listened on, then closed), for a process that must know its port before it starts. */
export async function freeLoopbackPort(): Promise<number> {
  const probe = createServer();
  const port = await listenOnLoopback(probe);
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
