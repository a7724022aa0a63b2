import { networkInterfaces } from 'node:os';

type Interfaces = ReturnType<typeof networkInterfaces>;

/**
 * The addresses to open Mostrador from other devices of the shop's network (tablets, another PC):
 * every IPv4 address of the machine that is not its own loopback, when listening on all of them;
 * the one address when HOST names one; none when HOST is loopback.
 */
export function lanUrls(host: string, port: number, interfaces: Interfaces = networkInterfaces()): string[] {
  if (host === '0.0.0.0' || host === '::') {
    return Object.values(interfaces)
      .flat()
      .filter((a) => a && a.family === 'IPv4' && !a.internal)
      .map((a) => `http://${a!.address}:${port}`);
  }
  if (host === 'localhost' || host.startsWith('127.') || host === '::1') return [];
  return [`http://${host.includes(':') ? `[${host}]` : host}:${port}`];
}

/**
 * The lines of the start message that tell where to open Mostrador from the shop's network; with
 * HTTPS on, its addresses too, the page that explains how to trust the local CA and the CA's
 * fingerprint to compare on each tablet (decision 0055).
 */
export function lanMessage(urls: string[], https?: { urls: string[]; fingerprint: string }): string[] {
  if (!urls.length) return [];
  const lines = [
    'Desde las tablets y otras computadoras del local, abrí:',
    ...urls.map((u) => `  ${u}   (punto de venta: ${u}/pos)`),
  ];
  if (https) {
    lines.push(
      'Con HTTPS (la tablet puede volver a abrir el punto de venta sin internet):',
      ...https.urls.map((u) => `  ${u}/pos`),
      `  Antes, instalá el certificado de Mostrador en cada tablet: ${urls[0]}/certificado`,
      `  Huella SHA-256 del certificado: ${https.fingerprint}`,
    );
  }
  return lines;
}
