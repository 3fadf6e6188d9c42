// A tiny process wired as src/main.ts wires itself: the process policy (src/process-policy.ts)
// installed at once, an HTTP server, and the drain of src/shutdown.ts as the policy's fatal state,
// with a stand-in runtime that logs each drain step. src/process-policy.test.ts spawns it and makes
// it fail in the ways a real process can, over HTTP:
//   GET /reject             a rejection nobody awaits, of a dependency's connection error (pg-boss's Manager.fail)
//   GET /reject-bug         a rejection nobody awaits, of any other error
//   GET /throw-dependency   a dependency's connection error thrown out of the event loop
//   GET /throw              any other error thrown out of the event loop: the fatal state
//   GET /slow               answers once the drain has begun (a request in flight during it)
//   GET /warn               a process warning, as a library emits one (the AWS SDK on the Node version)
//   GET /ok                 200
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLogger } from '../../src/lib/logger.ts';
import { installProcessPolicy } from '../../src/process-policy.ts';
import { drainOnSignals } from '../../src/shutdown.ts';

const logger = createLogger('info');
let fatal: (reason: string) => void = () => process.exit(1);
installProcessPolicy(logger, (reason) => fatal(reason));

const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
let drainBegan!: () => void;
const draining = new Promise<void>((resolve) => (drainBegan = resolve));

const server = http.createServer((req, res) => {
  const answer = (text: string) => res.end(text);
  switch (req.url) {
    case '/reject':
      void Promise.reject(refused());
      return answer('rejected');
    case '/reject-bug':
      void Promise.reject(new TypeError('a bug nobody awaited'));
      return answer('rejected');
    case '/throw-dependency':
      setImmediate(() => {
        throw refused();
      });
      return answer('thrown');
    case '/throw':
      setImmediate(() => {
        throw new TypeError('a bug in the event loop');
      });
      return answer('thrown');
    case '/warn':
      process.emitWarning('The AWS SDK for JavaScript (v3) will require node >=22.', 'NodeVersionSupportWarning');
      return answer('warned');
    case '/slow':
      res.setHeader('Connection', 'close');
      void draining.then(() => answer('answered during the drain'));
      return;
    default:
      return answer('ok');
  }
});
server.listen(0, '127.0.0.1', () => {
  fatal = drainOnSignals({
    logger,
    server,
    requestGraceMs: 60_000,
    runtime: {
      endStreams: async () => {
        logger.info('drain: streams ended');
        drainBegan();
      },
      stopJobs: async () => logger.info('drain: jobs handed back'),
      close: async () => logger.info('drain: runtime closed'),
    },
  });
  logger.info({ port: (server.address() as AddressInfo).port }, 'listening');
});
