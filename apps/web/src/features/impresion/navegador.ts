/*
 * A thermal printer attached to this computer, driven by the browser (issue 35): Web Serial (a
 * USB-serial or Bluetooth-serial printer) or WebUSB (a USB printer class device), both in
 * Chromium only and both asking the user once to pick the device. The bytes come from the server
 * (ESC/POS, as for network printers); this file only carries them.
 */

interface SerialPortLike {
  open(o: { baudRate: number }): Promise<void>;
  close(): Promise<void>;
  writable: WritableStream<Uint8Array> | null;
}
interface UsbEndpoint {
  direction: 'in' | 'out';
  type: string;
  endpointNumber: number;
}
interface UsbDeviceLike {
  opened: boolean;
  open(): Promise<void>;
  selectConfiguration(n: number): Promise<void>;
  claimInterface(n: number): Promise<void>;
  transferOut(endpoint: number, data: Uint8Array): Promise<unknown>;
  configuration: {
    interfaces: { interfaceNumber: number; alternate: { interfaceClass: number; endpoints: UsbEndpoint[] } }[];
  } | null;
}
interface NavigatorWithDevices {
  serial?: { requestPort(): Promise<SerialPortLike>; getPorts(): Promise<SerialPortLike[]> };
  usb?: {
    requestDevice(o: { filters: { classCode?: number }[] }): Promise<UsbDeviceLike>;
    getDevices(): Promise<UsbDeviceLike[]>;
  };
}

const nav = () => navigator as unknown as NavigatorWithDevices;
const KEY = 'mostrador.impresora-navegador';
export type Conexion = 'serie' | 'usb';

/** Which connections this browser offers (none outside Chromium). */
export function conexionesDisponibles(): Conexion[] {
  if (typeof navigator === 'undefined') return [];
  return [...(nav().serial ? (['serie'] as const) : []), ...(nav().usb ? (['usb'] as const) : [])];
}

export const conexionElegida = (): Conexion | null => (localStorage.getItem(KEY) as Conexion | null) ?? null;

/** Asks the user to pick the printer (needs a click); remembered for this device. */
export async function elegirImpresora(c: Conexion): Promise<void> {
  if (c === 'serie') {
    if (!nav().serial) throw new Error('Este navegador no permite impresoras por puerto serie: usá Chrome o Edge.');
    await nav().serial!.requestPort();
  } else {
    if (!nav().usb) throw new Error('Este navegador no permite impresoras USB: usá Chrome o Edge.');
    // Class 7: printers.
    await nav().usb!.requestDevice({ filters: [{ classCode: 7 }] });
  }
  localStorage.setItem(KEY, c);
}

const base64 = (b64: string) => Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0));

async function porSerie(bytes: Uint8Array) {
  const [port] = (await nav().serial?.getPorts()) ?? [];
  if (!port) throw new Error('Elegí la impresora de esta computadora en Caja › Impresora.');
  await port.open({ baudRate: 9600 });
  try {
    const w = port.writable!.getWriter();
    await w.write(bytes);
    w.releaseLock();
  } finally {
    await port.close();
  }
}

async function porUsb(bytes: Uint8Array) {
  const [dev] = (await nav().usb?.getDevices()) ?? [];
  if (!dev) throw new Error('Elegí la impresora de esta computadora en Caja › Impresora.');
  if (!dev.opened) await dev.open();
  if (!dev.configuration) await dev.selectConfiguration(1);
  const iface =
    dev.configuration!.interfaces.find((i) => i.alternate.interfaceClass === 7) ?? dev.configuration!.interfaces[0];
  const out = iface.alternate.endpoints.find((e) => e.direction === 'out' && e.type === 'bulk');
  if (!out) throw new Error('La impresora USB no tiene una salida de datos: probá con la conexión por puerto serie.');
  await dev.claimInterface(iface.interfaceNumber);
  await dev.transferOut(out.endpointNumber, bytes);
}

/** Sends a job (base64 ESC/POS from the server) to the printer chosen on this device. */
export async function enviarAImpresoraDelNavegador(escpos: string): Promise<void> {
  const c = conexionElegida();
  if (!c) throw new Error('Elegí la impresora de esta computadora en Caja › Impresora.');
  const bytes = base64(escpos);
  if (c === 'serie') await porSerie(bytes);
  else await porUsb(bytes);
}
