import { generateKeyPairSync, getDiffieHellman } from 'node:crypto';
import { createServer, request, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import tls from 'node:tls';
import forge from 'node-forge';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as arca from './arca-client.js';
import { ArcaUnavailableError, arcaAgent, arcaTransport } from './arca-client.js';

/*
 * Production TLS (decision 0039): ARCA's production hosts offer only a 1024-bit DH group, which
 * OpenSSL 3 refuses at security level 2 ("dh key too small"). A local server that offers exactly
 * that (DHE only, TLS 1.2, RFC 2409's 1024-bit group): with the platform default at level 2 (as
 * Debian's and Ubuntu's OpenSSL configuration sets it; this Node's bundled default is level 1, so
 * the test sets it as those builds do), a request with the default agent fails, the ARCA client's
 * agent connects, and a request outside the ARCA client still fails afterwards.
 */

/** DER of an INTEGER (unsigned, big-endian). */
const derInt = (b: Buffer) => {
  const v = b[0] & 0x80 ? Buffer.concat([Buffer.from([0]), b]) : b;
  return Buffer.concat([Buffer.from([0x02]), derLen(v.length), v]);
};
const derLen = (n: number) => (n < 128 ? Buffer.from([n]) : Buffer.from([0x82, n >> 8, n & 0xff]));

/** PEM DH parameters of RFC 2409's Oakley group 2 (1024 bits). */
function dhParams1024() {
  const dh = getDiffieHellman('modp2');
  expect(dh.getPrime().length * 8).toBe(1024);
  const body = Buffer.concat([derInt(dh.getPrime()), derInt(dh.getGenerator())]);
  const der = Buffer.concat([Buffer.from([0x30]), derLen(body.length), body]);
  return `-----BEGIN DH PARAMETERS-----\n${der
    .toString('base64')
    .match(/.{1,64}/g)!
    .join('\n')}\n-----END DH PARAMETERS-----\n`;
}

/** A self-signed certificate for 127.0.0.1 (the test's own CA). */
function serverCertificate() {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const keyPem = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
  const key = forge.pki.privateKeyFromPem(keyPem);
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.setRsaPublicKey(key.n, key.e);
  cert.serialNumber = '01';
  cert.validity.notBefore = new Date(Date.now() - 60_000);
  cert.validity.notAfter = new Date(Date.now() + 24 * 3600_000);
  const name = [{ shortName: 'CN', value: 'servicios1.afip.gov.ar (prueba local)' }];
  cert.setSubject(name);
  cert.setIssuer(name);
  cert.setExtensions([{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }]);
  cert.sign(key, forge.md.sha256.create());
  return { keyPem, certPem: forge.pki.certificateToPem(cert) };
}

const DUMMY =
  '<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>' +
  '<FEDummyResponse xmlns="http://ar.gov.afip.dif.FEV1/"><FEDummyResult><AppServer>OK</AppServer><DbServer>OK</DbServer>' +
  '<AuthServer>OK</AuthServer></FEDummyResult></FEDummyResponse></soap:Body></soap:Envelope>';

let server: Server;
let url = '';
const { keyPem, certPem } = serverCertificate();
const platformCiphers = tls.DEFAULT_CIPHERS;
const clientAgent = arcaTransport.agent;

beforeAll(async () => {
  server = createServer(
    {
      key: keyPem,
      cert: certPem,
      dhparam: dhParams1024(),
      // Only finite-field DHE, and no TLS 1.3 (whose groups are other): the 1024-bit group it is.
      ciphers: 'DHE-RSA-AES128-GCM-SHA256:DHE-RSA-AES256-GCM-SHA384:@SECLEVEL=1',
      minVersion: 'TLSv1.2',
      maxVersion: 'TLSv1.2',
    },
    (req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'text/xml' }).end(DUMMY));
    },
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/wsfev1/service.asmx`;
  // The platform default of OpenSSL 3 builds at security level 2.
  tls.DEFAULT_CIPHERS = `${platformCiphers}:@SECLEVEL=2`;
});

afterEach(() => {
  arcaTransport.agent = clientAgent;
});

afterAll(async () => {
  tls.DEFAULT_CIPHERS = platformCiphers;
  await new Promise((r) => server.close(r));
});

/** A POST outside the ARCA client (the default agent), trusting the test's certificate. */
const plain = () =>
  new Promise<string>((resolve) => {
    const req = request(url, { method: 'POST', ca: certPem }, (res) => {
      res.resume();
      res.on('end', () => resolve(`HTTP ${res.statusCode}`));
    });
    req.on('error', (e: NodeJS.ErrnoException) => resolve(`${e.code}: ${e.message}`));
    req.end('<x/>');
  });

describe('TLS towards ARCA', () => {
  it('a server with only a 1024-bit DH group: the default agent fails, the ARCA agent connects, nothing else is downgraded', async () => {
    expect(await plain()).toMatch(/^EPROTO: .*dh key too small/);

    // The ARCA client with its own agent (trusting the test's certificate instead of the public CAs).
    arcaTransport.agent = arcaAgent({ ca: certPem });
    expect(await arca.feDummy(url, 5_000)).toEqual({ app: 'OK', db: 'OK', auth: 'OK' });

    // Requests outside the ARCA client keep the platform's settings.
    expect(await plain()).toMatch(/^EPROTO: .*dh key too small/);
  });

  it('the ARCA client with an agent of default settings fails, and says it is TLS', async () => {
    arcaTransport.agent = new (await import('node:https')).Agent({ ca: certPem });
    const e = await arca.feDummy(url, 5_000).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ArcaUnavailableError);
    expect((e as Error).message).toMatch(/^No se pudo conectar con ARCA \(TLS: .*dh key too small/);
    // The same client with its own agent connects (the negative control of the one above).
    arcaTransport.agent = arcaAgent({ ca: certPem });
    expect(await arca.feDummy(url, 5_000)).toMatchObject({ app: 'OK' });
  });
});
