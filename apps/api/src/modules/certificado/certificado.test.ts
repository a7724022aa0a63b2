import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeHttps, listenHttps } from '../../lib/lan-https.js';
import { certificateNames, ensureLanTls, lanNames, SERVER_DAYS, type LanNames } from '../../lib/lan-tls.js';
import { createTestApp, siblingApp, type TestContext } from '../../test/app.js';

const DAY = 24 * 60 * 60 * 1000;
const names: LanNames = { dns: ['tienda', 'tienda.local', 'localhost'], ips: ['127.0.0.1', '::1', '192.168.1.20'] };
const dirs: string[] = [];
const dataDir = () => {
  const d = mkdtempSync(path.join(tmpdir(), 'mostrador-tls-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('the local CA and the server certificate', () => {
  it('creates the CA once, with its key only for this user (0600), and reuses both across restarts', () => {
    const dir = dataDir();
    const first = ensureLanTls(dir, names);
    expect(first.issued).toBe(true);
    for (const f of ['ca.key', 'servidor.key']) expect(statSync(path.join(dir, 'tls', f)).mode & 0o777).toBe(0o600);
    expect(readFileSync(path.join(dir, 'tls', 'ca.crt'), 'utf8')).toBe(first.caPem);

    const again = ensureLanTls(dir, names);
    expect(again.caPem).toBe(first.caPem);
    expect(again.certPem).toBe(first.certPem);
    expect(again.keyPem).toBe(first.keyPem);
    expect(again.issued).toBe(false);
    expect(again.caFingerprint).toBe(new X509Certificate(first.caPem).fingerprint256);
  });

  it('issues the server certificate for the PC’s names and addresses, signed by the CA, for at most 397 days', () => {
    const tls = ensureLanTls(dataDir(), names);
    const ca = new X509Certificate(tls.caPem);
    const cert = new X509Certificate(tls.certPem);
    expect(ca.ca).toBe(true);
    expect(cert.ca).toBe(false);
    expect(cert.checkIssued(ca)).toBe(true);
    expect(cert.verify(ca.publicKey)).toBe(true);
    // Not by another CA.
    const other = new X509Certificate(ensureLanTls(dataDir(), names).caPem);
    expect(cert.verify(other.publicKey)).toBe(false);

    expect(certificateNames(tls.certPem)).toEqual({
      dns: ['localhost', 'tienda', 'tienda.local'],
      ips: ['127.0.0.1', '192.168.1.20', '::1'],
    });
    expect(cert.checkHost('tienda.local')).toBe('tienda.local');
    expect(cert.checkIP('192.168.1.20')).toBe('192.168.1.20');
    expect(cert.checkHost('otra.local')).toBeUndefined();
    const days = (new Date(cert.validTo).getTime() - new Date(cert.validFrom).getTime()) / DAY;
    expect(days).toBeLessThanOrEqual(SERVER_DAYS);
    expect(days).toBeGreaterThan(390);
    expect(cert.keyUsage).toContain('1.3.6.1.5.5.7.3.1'); // serverAuth
  });

  it('re-issues the server certificate (same CA) when a name or address changes, or near expiry', () => {
    const dir = dataDir();
    const first = ensureLanTls(dir, names);
    const renamed = ensureLanTls(dir, { ...names, dns: ['caja2', 'caja2.local', 'localhost'] });
    expect(renamed.issued).toBe(true);
    expect(renamed.caPem).toBe(first.caPem);
    expect(renamed.certPem).not.toBe(first.certPem);
    expect(new X509Certificate(renamed.certPem).checkHost('caja2.local')).toBe('caja2.local');
    expect(new X509Certificate(renamed.certPem).checkIssued(new X509Certificate(first.caPem))).toBe(true);

    const moved = ensureLanTls(dir, {
      ...names,
      dns: ['caja2', 'caja2.local', 'localhost'],
      ips: ['127.0.0.1', '::1', '10.0.0.7'],
    });
    expect(moved.issued).toBe(true);
    expect(new X509Certificate(moved.certPem).checkIP('10.0.0.7')).toBe('10.0.0.7');
    expect(new X509Certificate(moved.certPem).checkIP('192.168.1.20')).toBeUndefined();

    const same = { ...names, dns: ['caja2', 'caja2.local', 'localhost'], ips: ['127.0.0.1', '::1', '10.0.0.7'] };
    expect(ensureLanTls(dir, same).issued).toBe(false);
    const later = ensureLanTls(dir, same, new Date(Date.now() + 380 * DAY));
    expect(later.issued).toBe(true);
    expect(later.caPem).toBe(first.caPem);
  });

  it('names this PC by default: its hostname, hostname.local, localhost and its addresses', () => {
    const n = lanNames('Caja-Uno', {
      eth0: [{ address: '192.168.1.20', family: 'IPv4', internal: false, netmask: '', mac: '', cidr: null }],
      lo: [{ address: '127.0.0.1', family: 'IPv4', internal: true, netmask: '', mac: '', cidr: null }],
    } as never);
    expect(n.dns).toEqual(['caja-uno', 'caja-uno.local', 'localhost']);
    expect(n.ips.sort()).toEqual(['127.0.0.1', '192.168.1.20', '::1']);
    expect(lanNames('caja', {}, ['Tienda.local', '']).dns).toEqual(['caja', 'caja.local', 'localhost', 'tienda.local']);
  });
});

describe('the /certificado page and the CA download', () => {
  let ctx: TestContext;
  let tls: ReturnType<typeof ensureLanTls>;
  let httpsApp: Awaited<ReturnType<typeof siblingApp>>;
  beforeAll(async () => {
    ctx = await createTestApp();
    tls = ensureLanTls(dataDir(), names);
    httpsApp = await siblingApp(ctx, {
      certificado: { caPem: tls.caPem, httpsPort: 3443, urls: ['https://192.168.1.20:3443'] },
    });
  });

  it('explains, without logging in and over plain HTTP, how to install the CA on Android, iPad and Windows', async () => {
    const res = await httpsApp.inject({ method: 'GET', url: '/certificado' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    for (const s of ['Android', 'iPad y iPhone', 'Windows', 'https://192.168.1.20:3443/pos', tls.caFingerprint])
      expect(res.body).toContain(s);
    expect(res.body).toContain('href="/certificado/mostrador-ca.crt"');
    // The same security headers as every page; no HSTS over plain HTTP.
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });

  it('downloads the CA as a DER .crt and as PEM, the same certificate the page fingerprints', async () => {
    const der = await httpsApp.inject({ method: 'GET', url: '/certificado/mostrador-ca.crt' });
    expect(der.statusCode).toBe(200);
    expect(der.headers['content-type']).toBe('application/x-x509-ca-cert');
    expect(der.headers['content-disposition']).toBe('attachment; filename="mostrador-ca.crt"');
    const fromDer = new X509Certificate(der.rawPayload);
    expect(fromDer.fingerprint256).toBe(tls.caFingerprint);
    expect(fromDer.ca).toBe(true);
    const pem = await httpsApp.inject({ method: 'GET', url: '/certificado/mostrador-ca.pem' });
    expect(pem.statusCode).toBe(200);
    expect(pem.body).toBe(tls.caPem);
    // Only the certificate: never a key.
    expect(pem.body).not.toMatch(/PRIVATE KEY/);
    expect(der.rawPayload.toString('latin1')).not.toMatch(/PRIVATE KEY/);
  });

  it('says how to turn HTTPS on where it is off, and has nothing to download', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/certificado' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('HTTPS en el local no está activado');
    expect(res.body).toContain('HTTPS_PORT');
    const crt = await ctx.app.inject({ method: 'GET', url: '/certificado/mostrador-ca.crt' });
    expect(crt.statusCode).toBe(404);
    expect(crt.json()).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('serves the same app over HTTPS on a second port, trusted through the CA, with HSTS only there', async () => {
    const server = await listenHttps(httpsApp, tls, 0, '127.0.0.1');
    try {
      const port = (server.address() as AddressInfo).port;
      const get = (url: string, ca?: string) =>
        new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
          const req = httpsRequest(
            {
              host: '127.0.0.1',
              port,
              path: url,
              servername: 'tienda.local',
              ca,
              headers: { host: `tienda.local:${port}` },
            },
            (res) => {
              let body = '';
              res.on('data', (c) => (body += c));
              res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
            },
          );
          req.on('error', reject);
          req.end();
        });
      const health = await get('/api/v1/health', tls.caPem);
      expect(health.status).toBe(200);
      expect(health.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      expect(health.headers['x-frame-options']).toBe('DENY');
      const page = await get('/certificado', tls.caPem);
      expect(page.status).toBe(200);
      expect(page.headers['content-security-policy']).toContain('upgrade-insecure-requests');
      // A client that does not trust the CA refuses the connection.
      await expect(get('/api/v1/health')).rejects.toThrow(/self-signed|unable to (get|verify)/i);
    } finally {
      await closeHttps(server);
    }
  });
});
