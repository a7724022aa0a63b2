import { createServer, type Server } from 'node:https';
import type { FastifyInstance } from 'fastify';
import type { LanTls } from './lan-tls.js';

/**
 * The second listener of HTTPS on the shop's network: a Node HTTPS server that hands every request
 * to the same Fastify app as the plain HTTP one (same routes, hooks and security headers; requests
 * arrive over TLS, so `request.protocol` is `https` and HSTS is sent on this port only).
 */
export async function listenHttps(
  app: FastifyInstance,
  tls: Pick<LanTls, 'certPem' | 'keyPem'>,
  port: number,
  host: string,
): Promise<Server> {
  await app.ready();
  const server = createServer({ cert: tls.certPem, key: tls.keyPem }, (req, res) => app.routing(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}

/** Stops accepting and closes the open connections (keep-alive ones included). */
export function closeHttps(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
