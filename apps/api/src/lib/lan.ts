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

/** The lines of the start message that tell where to open Mostrador from the shop's network. */
export function lanMessage(urls: string[]): string[] {
  if (!urls.length) return [];
  return [
    'Desde las tablets y otras computadoras del local, abrí:',
    ...urls.map((u) => `  ${u}   (punto de venta: ${u}/pos)`),
  ];
}
