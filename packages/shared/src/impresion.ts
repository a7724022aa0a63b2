import { z } from 'zod';

/*
 * Printing without the browser's dialog (issue 35, decision 0054): each caja may have a thermal
 * ESC/POS printer, either on the shop's network (reached by the server on its raw port, 9100 by
 * default) or attached to the counter's device and driven by the browser (WebUSB / Web Serial in
 * Chromium). The server renders every document to ESC/POS bytes in both cases.
 */

export const IMPRESORA_TIPOS = ['red', 'navegador'] as const;
export type ImpresoraTipo = (typeof IMPRESORA_TIPOS)[number];
export const IMPRESORA_TIPO_LABELS: Record<ImpresoraTipo, string> = {
  red: 'Impresora de red (la imprime el servidor)',
  navegador: 'Impresora conectada a esta computadora (USB o serie, en Chrome)',
};

/** Paper widths in mm: 58 mm rolls print 32 columns, 80 mm rolls 48 (font A). */
export const ANCHOS_PAPEL = [58, 80] as const;
export type AnchoPapel = (typeof ANCHOS_PAPEL)[number];
export const COLUMNAS_PAPEL: Record<AnchoPapel, number> = { 58: 32, 80: 48 };

/** The raw printing port of network thermal printers. */
export const PUERTO_IMPRESORA = 9100;

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/i;

/** An IPv4 address, an IPv6 address or a host name (RFC 1123): no scheme, port or path. */
export function esHostImpresora(host: string): boolean {
  if (IPV4.test(host)) return true;
  if (host.includes(':')) return z.ipv6().safeParse(host).success;
  if (/^[\d.]+$/.test(host)) return false;
  return host.length <= 253 && host.split('.').every((l) => LABEL.test(l));
}

const MSG_HOST =
  'Ingresá la IP o el nombre de la impresora en la red (por ejemplo 192.168.0.50), sin http:// ni puerto.';
const MSG_PUERTO = 'El puerto va de 1 a 65535 (las impresoras térmicas usan el 9100).';
const MSG_ANCHO = 'El ancho del papel es 58 u 80 mm.';

const ancho = z.union([z.literal(58), z.literal(80)], { error: MSG_ANCHO });
/** Opens the cash drawer (pulse on the printer's drawer connector) when a sale is paid in cash. */
const abrirCajon = z.boolean({ error: 'Debe ser verdadero o falso.' }).default(false);

export const impresoraRedInput = z.object({
  tipo: z.literal('red'),
  host: z
    .string({ error: MSG_HOST })
    .trim()
    .min(1, { error: MSG_HOST })
    .max(253, { error: MSG_HOST })
    .refine(esHostImpresora, { error: MSG_HOST }),
  puerto: z
    .number({ error: MSG_PUERTO })
    .int({ error: MSG_PUERTO })
    .min(1, { error: MSG_PUERTO })
    .max(65535, { error: MSG_PUERTO })
    .default(PUERTO_IMPRESORA),
  ancho,
  abrir_cajon: abrirCajon,
});

export const impresoraNavegadorInput = z.object({
  tipo: z.literal('navegador'),
  ancho,
  abrir_cajon: abrirCajon,
});

/** A caja's printer; null: none (tickets go through the browser's print dialog). */
export const impresoraInput = z
  .discriminatedUnion('tipo', [impresoraRedInput, impresoraNavegadorInput], {
    error: 'Elegí el tipo de impresora: "red" o "navegador".',
  })
  .nullable();
export type ImpresoraInput = z.input<typeof impresoraInput>;
export type Impresora = NonNullable<z.output<typeof impresoraInput>>;

export const impresoraSchema = z
  .discriminatedUnion('tipo', [
    z.object({
      tipo: z.literal('red'),
      host: z.string(),
      puerto: z.number(),
      ancho: z.number(),
      abrir_cajon: z.boolean(),
    }),
    z.object({ tipo: z.literal('navegador'), ancho: z.number(), abrir_cajon: z.boolean() }),
  ])
  .nullable();

/* ---------------------------------------------------------------- label printers */

/**
 * A caja's label printer (decision 0054): a Zebra-compatible printer on the shop's network that
 * speaks ZPL II, reached by the server on its raw port (9100), with the size of its labels and
 * its resolution (203 dpi prints 8 dots per mm, 300 dpi 12).
 */
export const DPI_ETIQUETAS = [203, 300] as const;
export const LENGUAJES_ETIQUETAS = ['zpl'] as const;
const MSG_DPI = 'La resolución es 203 o 300 dpi (figura en la etiqueta de la impresora).';
const MSG_MEDIDA = (campo: string, min: number, max: number) => `El ${campo} de la etiqueta va de ${min} a ${max} mm.`;
const mm = (campo: string, min: number, max: number) =>
  z
    .number({ error: MSG_MEDIDA(campo, min, max) })
    .int({ error: MSG_MEDIDA(campo, min, max) })
    .min(min, { error: MSG_MEDIDA(campo, min, max) })
    .max(max, { error: MSG_MEDIDA(campo, min, max) });

export const impresoraEtiquetasInput = z
  .object({
    lenguaje: z.enum(LENGUAJES_ETIQUETAS, { error: 'La impresora de etiquetas habla ZPL (Zebra y compatibles).' }),
    host: impresoraRedInput.shape.host,
    puerto: impresoraRedInput.shape.puerto,
    dpi: z.union([z.literal(203), z.literal(300)], { error: MSG_DPI }).default(203),
    ancho_mm: mm('ancho', 25, 110).default(60),
    alto_mm: mm('alto', 15, 150).default(40),
  })
  .nullable();
export type ImpresoraEtiquetasInput = z.input<typeof impresoraEtiquetasInput>;
export type ImpresoraEtiquetas = NonNullable<z.output<typeof impresoraEtiquetasInput>>;

export const impresoraEtiquetasSchema = z
  .object({
    lenguaje: z.enum(LENGUAJES_ETIQUETAS),
    host: z.string(),
    puerto: z.number(),
    dpi: z.number(),
    ancho_mm: z.number(),
    alto_mm: z.number(),
  })
  .nullable();

/* ---------------------------------------------------------------- what prints */

/** Documents the server prints and shares: their `tipo` in the routes. */
export const DOCUMENTO_TIPOS = [
  'ticket',
  'factura',
  'cobro',
  'devolucion',
  'cierre',
  'estado_cuenta',
  'presupuesto',
  'remito',
  'transferencia',
] as const;
export type DocumentoTipo = (typeof DOCUMENTO_TIPOS)[number];
export const DOCUMENTO_TIPO_LABELS: Record<DocumentoTipo, string> = {
  ticket: 'Ticket',
  factura: 'Factura',
  cobro: 'Recibo de cobro',
  devolucion: 'Devolución',
  cierre: 'Cierre de turno',
  estado_cuenta: 'Estado de cuenta',
  presupuesto: 'Presupuesto',
  remito: 'Remito',
  transferencia: 'Remito interno',
};

const uuid = z.uuid({ error: 'Identificador no válido.' });

/** `POST …/ventas/{ventaId}/imprimir`: the sale's invoice when it has an authorised one, else its ticket. */
export const ventaImprimirInput = z.object({
  /** The caja whose printer prints; absent: the caja of the sale's turno. */
  caja_id: uuid.optional(),
  /** Asks for the drawer (a sale just charged): it opens only when paid in cash and the caja says so. */
  abrir_cajon: z.boolean({ error: 'Debe ser verdadero o falso.' }).optional(),
});
export type VentaImprimirInput = z.input<typeof ventaImprimirInput>;

/** `POST …/documentos/imprimir`: any printable document on a caja's printer. */
export const documentoImprimirInput = z.object({
  tipo: z.enum(DOCUMENTO_TIPOS, {
    error:
      'Elegí qué imprimir: ticket, factura, cobro, devolucion, cierre, estado_cuenta, presupuesto, remito o transferencia.',
  }),
  id: uuid,
  caja_id: uuid,
});
export type DocumentoImprimirInput = z.input<typeof documentoImprimirInput>;

/** `GET …/documentos/pdf?tipo=&id=`: a document's PDF, to print from the browser or keep. */
export const documentoPdfQuery = z.object({
  tipo: z.enum(DOCUMENTO_TIPOS, {
    error:
      'Elegí qué documento: ticket, factura, cobro, devolucion, cierre, estado_cuenta, presupuesto, remito o transferencia.',
  }),
  id: uuid,
});

export const impresionSchema = z.object({
  /** true: the network printer took the whole job; false: the browser must send `escpos` itself. */
  impreso: z.boolean(),
  destino: z.enum(IMPRESORA_TIPOS),
  documento: z.enum(DOCUMENTO_TIPOS),
  /** The drawer pulse went with the job. */
  cajon: z.boolean(),
  /** The job's ESC/POS bytes in base64, for a printer attached to the browser; null when printed. */
  escpos: z.string().nullable(),
});
export type Impresion = z.infer<typeof impresionSchema>;

export const IMPRESION_MESSAGES = {
  sinImpresora:
    'Esta caja no tiene impresora configurada: configurala en Caja › Impresora, o imprimí con el navegador.',
  sinCaja: 'La venta no tiene caja: elegí en qué caja imprimir.',
  turnoAbierto: 'El cierre se imprime cuando el turno está cerrado.',
} as const;

/* ---------------------------------------------------------------- sharing */

/** What a customer may be sent as a link. */
export const DOCUMENTOS_COMPARTIBLES = [
  'ticket',
  'factura',
  'cobro',
  'devolucion',
  'estado_cuenta',
  'presupuesto',
  'remito',
] as const;
/** A shared link works this many days. */
export const DIAS_ENLACE_COMPARTIDO = 7;

export const compartirInput = z.object({
  tipo: z.enum(DOCUMENTOS_COMPARTIBLES, {
    error: 'Elegí qué compartir: ticket, factura, cobro, devolucion, estado_cuenta, presupuesto o remito.',
  }),
  id: uuid,
  /** Also sends the link to this address (SMTP must be set up). */
  email: z.email({ error: 'El e-mail no es válido.' }).max(254).optional(),
});
export type CompartirInput = z.input<typeof compartirInput>;

export const compartidoSchema = z.object({
  /** The PDF, opened without a session until `vence`. */
  url: z.string(),
  /** wa.me with the customer's phone when it has one (else WhatsApp asks for the contact), and the message. */
  whatsapp_url: z.string(),
  vence: z.string(),
  /** The e-mail left (false: none was asked). */
  email_enviado: z.boolean(),
});
export type Compartido = z.infer<typeof compartidoSchema>;

export const COMPARTIR_MESSAGES = {
  sinSmtp: 'El envío por e-mail no está configurado en este servidor: compartí el enlace o por WhatsApp.',
  enlaceInvalido: 'El enlace no es válido.',
  enlaceVencido: 'El enlace venció: pedile al comercio que te lo comparta de nuevo.',
} as const;
