import { describe, expect, it } from 'vitest';
import { lanMessage, lanUrls } from './lan.js';

const ifaces = {
  lo: [
    { address: '127.0.0.1', family: 'IPv4', internal: true, netmask: '255.0.0.0', mac: '', cidr: null },
    { address: '::1', family: 'IPv6', internal: true, netmask: '', mac: '', cidr: null, scopeid: 0 },
  ],
  eth0: [
    { address: '192.168.1.20', family: 'IPv4', internal: false, netmask: '255.255.255.0', mac: '', cidr: null },
    { address: 'fe80::1', family: 'IPv6', internal: false, netmask: '', mac: '', cidr: null, scopeid: 2 },
  ],
  wlan0: [{ address: '10.0.0.7', family: 'IPv4', internal: false, netmask: '255.0.0.0', mac: '', cidr: null }],
} as unknown as Parameters<typeof lanUrls>[2];

describe('the LAN addresses of the start message', () => {
  it('lists every non-internal IPv4 address with the port when listening on all addresses', () => {
    expect(lanUrls('0.0.0.0', 3000, ifaces)).toEqual(['http://192.168.1.20:3000', 'http://10.0.0.7:3000']);
    expect(lanUrls('::', 8080, ifaces)).toEqual(['http://192.168.1.20:8080', 'http://10.0.0.7:8080']);
  });

  it('gives the one address HOST names, and none on loopback', () => {
    expect(lanUrls('192.168.1.20', 3000, ifaces)).toEqual(['http://192.168.1.20:3000']);
    expect(lanUrls('127.0.0.1', 3000, ifaces)).toEqual([]);
    expect(lanUrls('localhost', 3000, ifaces)).toEqual([]);
  });

  it('prints each address with the point of sale, in Spanish, and nothing without addresses', () => {
    const lines = lanMessage(['http://192.168.1.20:3000']);
    expect(lines[0]).toBe('Desde las tablets y otras computadoras del local, abrí:');
    expect(lines[1]).toContain('http://192.168.1.20:3000/pos');
    expect(lanMessage([])).toEqual([]);
  });

  it('reads the machine’s own interfaces by default', () => {
    for (const url of lanUrls('0.0.0.0', 3000)) expect(url).toMatch(/^http:\/\/\d+\.\d+\.\d+\.\d+:3000$/);
  });
});

describe('the start message with HTTPS on the LAN', () => {
  it('adds the HTTPS addresses, the page to install the CA and its fingerprint', () => {
    const lines = lanMessage(['http://192.168.1.20:3000'], {
      urls: ['https://192.168.1.20:3443'],
      fingerprint: 'AB:CD',
    });
    expect(lines).toContain('  https://192.168.1.20:3443/pos');
    expect(lines.join('\n')).toContain('http://192.168.1.20:3000/certificado');
    expect(lines.join('\n')).toContain('Huella SHA-256 del certificado: AB:CD');
  });
});
