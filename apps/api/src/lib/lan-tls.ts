import { generateKeyPairSync, randomBytes, X509Certificate } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { hostname, networkInterfaces } from 'node:os';
import path from 'node:path';
import forge from 'node-forge';

/**
 * HTTPS on the shop's network (decision 0055): a local certificate authority created once under
 * DATA_DIR/tls (its key never leaves the PC, mode 0600) signs a certificate for the PC's names and
 * LAN addresses. Tablets that trust the CA (the /certificado page) open Mostrador over HTTPS, a
 * secure context, so the POS's service worker keeps the app for offline use.
 */

const DAY = 24 * 60 * 60 * 1000;
/** Browsers refuse server certificates valid for more than 398 days. */
export const SERVER_DAYS = 397;
/** Re-issued at start when this close to expiring. */
const RENEW_DAYS = 30;
const CA_YEARS = 10;

export interface LanNames {
  dns: string[];
  ips: string[];
}

export interface LanTls {
  /** PEM of the CA (what tablets install) and of the server's certificate and key. */
  caPem: string;
  certPem: string;
  keyPem: string;
  /** SHA-256 of the CA certificate, as `AA:BB:…`. */
  caFingerprint: string;
  /** Whether the server certificate was (re-)issued at this start. */
  issued: boolean;
}

/**
 * The PC's names (hostname, hostname.local, localhost, and `extra` ones: HTTPS_HOSTS) and addresses
 * (every IPv4/IPv6 one, loopback too; not link-local IPv6).
 */
export function lanNames(host = hostname(), interfaces = networkInterfaces(), extra: string[] = []): LanNames {
  const h = host.toLowerCase().replace(/\.local$/, '');
  const dns = [...new Set([h, `${h}.local`, 'localhost', ...extra.map((e) => e.trim().toLowerCase())].filter(Boolean))];
  const ips = new Set(['127.0.0.1', '::1']);
  for (const a of Object.values(interfaces).flat()) {
    if (a && !a.address.startsWith('fe80')) ips.add(a.address);
  }
  return { dns, ips: [...ips] };
}

const forgeKey = (pem: string) => forge.pki.privateKeyFromPem(pem);

function newKeyPem(): string {
  // Node makes the key (native, fast); node-forge builds and signs the certificates.
  return generateKeyPairSync('rsa', { modulusLength: 2048 })
    .privateKey.export({ type: 'pkcs1', format: 'pem' })
    .toString();
}

function serial(): string {
  // Positive, 16 bytes.
  const b = randomBytes(16);
  b[0] &= 0x7f;
  return b.toString('hex');
}

/** Writes so that a crash never leaves half a file; `secret` files are 0600. */
function writeFile(file: string, text: string, secret = false) {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, text, { mode: secret ? 0o600 : 0o644 });
  if (secret) chmodSync(tmp, 0o600);
  renameSync(tmp, file);
}

function createCa(now: Date): { keyPem: string; certPem: string } {
  const keyPem = newKeyPem();
  const key = forgeKey(keyPem);
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.setRsaPublicKey(key.n, key.e);
  cert.serialNumber = serial();
  cert.validity.notBefore = new Date(now.getTime() - DAY);
  cert.validity.notAfter = new Date(now.getTime() + CA_YEARS * 365 * DAY);
  const attrs = [
    { name: 'commonName', value: `Mostrador CA local (${hostname()})` },
    { name: 'organizationName', value: 'Mostrador' },
  ];
  cert.setSubject(attrs);
  cert.setIssuer(attrs);
  cert.setExtensions([
    { name: 'basicConstraints', cA: true, pathLenConstraint: 0, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  cert.sign(key, forge.md.sha256.create());
  return { keyPem, certPem: forge.pki.certificateToPem(cert) };
}

function issueServer(ca: { keyPem: string; certPem: string }, names: LanNames, now: Date) {
  const keyPem = newKeyPem();
  const key = forgeKey(keyPem);
  const caCert = forge.pki.certificateFromPem(ca.certPem);
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.setRsaPublicKey(key.n, key.e);
  cert.serialNumber = serial();
  cert.validity.notBefore = new Date(now.getTime() - DAY);
  cert.validity.notAfter = new Date(cert.validity.notBefore.getTime() + SERVER_DAYS * DAY);
  cert.setSubject([{ name: 'commonName', value: names.dns[0] ?? 'localhost' }]);
  cert.setIssuer(caCert.subject.attributes);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false, critical: true },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', serverAuth: true },
    { name: 'subjectKeyIdentifier' },
    { name: 'authorityKeyIdentifier', keyIdentifier: caCert.generateSubjectKeyIdentifier().getBytes() },
    {
      name: 'subjectAltName',
      altNames: [...names.dns.map((value) => ({ type: 2, value })), ...names.ips.map((ip) => ({ type: 7, ip }))],
    },
  ]);
  cert.sign(forgeKey(ca.keyPem), forge.md.sha256.create());
  return { keyPem, certPem: forge.pki.certificateToPem(cert) };
}

/** The names and addresses a certificate is for, as node:crypto reads them (sorted, comparable). */
export function certificateNames(certPem: string): LanNames {
  const alt = new X509Certificate(certPem).subjectAltName ?? '';
  const dns: string[] = [];
  const ips: string[] = [];
  for (const part of alt.split(', ')) {
    if (part.startsWith('DNS:')) dns.push(part.slice(4).toLowerCase());
    else if (part.startsWith('IP Address:')) ips.push(normalizeIp(part.slice(11)));
  }
  return { dns: dns.sort(), ips: ips.sort() };
}

function normalizeIp(ip: string): string {
  if (!ip.includes(':')) return ip;
  // node:crypto writes IPv6 in full (0:0:0:0:0:0:0:1); compare in one form.
  return new URL(`http://[${ip}]/`).hostname.slice(1, -1);
}

function sameNames(a: LanNames, b: LanNames): boolean {
  const norm = (n: LanNames) => JSON.stringify([[...n.dns].sort(), n.ips.map(normalizeIp).sort()]);
  return norm(a) === norm(b);
}

export function fingerprint(certPem: string): string {
  return new X509Certificate(certPem).fingerprint256;
}

/** The CA certificate in DER (the `.crt` tablets and Windows install). */
export function caDer(caPem: string): Buffer {
  return new X509Certificate(caPem).raw;
}

/**
 * The CA (created the first time) and a server certificate for `names`, re-issued when the names
 * or addresses changed, it is near expiry, or it is not the CA's.
 */
export function ensureLanTls(dataDir: string, names: LanNames = lanNames(), now = new Date()): LanTls {
  const dir = path.join(dataDir, 'tls');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const caKeyFile = path.join(dir, 'ca.key');
  const caCertFile = path.join(dir, 'ca.crt');
  let ca: { keyPem: string; certPem: string };
  if (existsSync(caKeyFile) && existsSync(caCertFile)) {
    ca = { keyPem: readFileSync(caKeyFile, 'utf8'), certPem: readFileSync(caCertFile, 'utf8') };
    chmodSync(caKeyFile, 0o600);
  } else {
    ca = createCa(now);
    writeFile(caKeyFile, ca.keyPem, true);
    writeFile(caCertFile, ca.certPem);
  }

  const keyFile = path.join(dir, 'servidor.key');
  const certFile = path.join(dir, 'servidor.crt');
  let server: { keyPem: string; certPem: string } | null = null;
  if (existsSync(keyFile) && existsSync(certFile)) {
    const current = { keyPem: readFileSync(keyFile, 'utf8'), certPem: readFileSync(certFile, 'utf8') };
    const x = new X509Certificate(current.certPem);
    const fresh = new Date(x.validTo).getTime() - now.getTime() > RENEW_DAYS * DAY;
    if (
      fresh &&
      sameNames(certificateNames(current.certPem), names) &&
      x.verify(new X509Certificate(ca.certPem).publicKey)
    ) {
      server = current;
    }
  }
  const issued = server === null;
  if (!server) {
    server = issueServer(ca, names, now);
    writeFile(keyFile, server.keyPem, true);
    writeFile(certFile, server.certPem);
  }
  return {
    caPem: ca.certPem,
    certPem: server.certPem,
    keyPem: server.keyPem,
    caFingerprint: fingerprint(ca.certPem),
    issued,
  };
}
