import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * TRUST_PROXY: off by default (a client could otherwise choose its own address with
 * X-Forwarded-For and escape every per-IP limit). A comma-separated list of the proxies' addresses
 * or CIDR ranges (or proxy-addr's names: loopback, linklocal, uniquelocal); only a request whose
 * peer is one of them has its X-Forwarded-For/-Proto/-Host believed. A bare hop count is refused:
 * it cannot tell the proxy from a client that connects directly and writes the header itself.
 */
export function parseTrustProxy(value: string | undefined): false | string[] {
  const v = (value ?? '').trim();
  if (!v || v === 'false') return false;
  if (/^\d+$/.test(v)) {
    throw new Error(
      'TRUST_PROXY: indicá las direcciones de los proxies (por ejemplo 127.0.0.1 o loopback), no una cantidad de saltos.',
    );
  }
  return v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * HSTS and the CSP's upgrade-insecure-requests only over HTTPS: sent over plain HTTP (the shop's
 * LAN address) they make the browser ask for every asset over HTTPS and show a blank page.
 * A request is HTTPS when it arrived over TLS, when a trusted proxy says so (X-Forwarded-Proto,
 * honoured only with TRUST_PROXY), or when it is addressed to the host of an https PUBLIC_URL.
 */
export function installHttpsOnlyHeaders(app: FastifyInstance, publicUrl: string) {
  const publicHost = /^https:\/\//i.test(publicUrl) ? new URL(publicUrl).host.toLowerCase() : null;
  const isHttps = (req: FastifyRequest) =>
    req.protocol === 'https' || (publicHost !== null && (req.host ?? '').toLowerCase() === publicHost);
  app.addHook('onRequest', async (req, reply) => {
    if (!isHttps(req)) return;
    reply.header('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
    const csp = reply.raw.getHeader('content-security-policy');
    if (typeof csp === 'string') reply.raw.setHeader('content-security-policy', `${csp};upgrade-insecure-requests`);
  });
}
