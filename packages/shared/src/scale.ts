import { z } from 'zod';

/*
 * Labels printed by the shop's scale: an EAN-13 whose first two digits (20 to 29, reserved for
 * in-store use) say it is a weighed item, then the item's code (its PLU, the product's "código"),
 * then the weight or the price, then the check digit. Scales sold in Argentina let the shop pick
 * how many digits go to the code and whether the label carries the weight or the price.
 */

export const SCALE_VALUES = ['peso', 'precio'] as const;
export type ScaleValue = (typeof SCALE_VALUES)[number];

const MSG_LAYOUT = 'Formato de etiqueta de balanza no válido.';

export const scaleLayoutSchema = z
  .object(
    {
      /** Two-digit prefixes that mark a scale label ("20" … "29"). */
      prefijos: z
        .array(z.string().regex(/^2\d$/, { error: 'Cada prefijo debe ser un número de 20 a 29.' }), {
          error: MSG_LAYOUT,
        })
        .min(1, { error: 'Elegí al menos un prefijo.' })
        .max(10, { error: MSG_LAYOUT }),
      /** Digits of the item code; the value takes the rest of the 10 digits between prefix and check digit. */
      codigo_digitos: z.number({ error: MSG_LAYOUT }).int().min(4, { error: MSG_LAYOUT }).max(6, { error: MSG_LAYOUT }),
      valor: z.enum(SCALE_VALUES, { error: 'Elegí si la etiqueta trae el peso o el precio.' }),
      /** Decimals of the value: 3 for a weight in grams read as kg; 0 or 2 for a price. */
      decimales: z.number({ error: MSG_LAYOUT }).int().min(0, { error: MSG_LAYOUT }).max(3, { error: MSG_LAYOUT }),
    },
    { error: MSG_LAYOUT },
  )
  .refine((l) => l.valor === 'peso' || l.decimales <= 2, {
    error: 'Un precio lleva a lo sumo 2 decimales.',
    path: ['decimales'],
  });
export type ScaleLayout = z.infer<typeof scaleLayoutSchema>;

const ALL_PREFIXES = ['20', '21', '22', '23', '24', '25', '26', '27', '28', '29'];

/** The layouts Argentine scales print most, ready to pick. */
export const SCALE_PRESETS: { id: string; nombre: string; layout: ScaleLayout }[] = [
  {
    id: 'peso-5',
    nombre: 'Peso en gramos, código de 5 dígitos (2P CCCCC GGGGG V)',
    layout: { prefijos: ALL_PREFIXES, codigo_digitos: 5, valor: 'peso', decimales: 3 },
  },
  {
    id: 'precio-5',
    nombre: 'Precio en pesos, código de 5 dígitos (2P CCCCC $$$$$ V)',
    layout: { prefijos: ALL_PREFIXES, codigo_digitos: 5, valor: 'precio', decimales: 0 },
  },
  {
    id: 'peso-4',
    nombre: 'Peso en gramos, código de 4 dígitos (2P CCCC GGGGGG V)',
    layout: { prefijos: ALL_PREFIXES, codigo_digitos: 4, valor: 'peso', decimales: 3 },
  },
  {
    id: 'precio-4',
    nombre: 'Precio en pesos, código de 4 dígitos (2P CCCC $$$$$$ V)',
    layout: { prefijos: ALL_PREFIXES, codigo_digitos: 4, valor: 'precio', decimales: 0 },
  },
  {
    id: 'precio-4-centavos',
    nombre: 'Precio con centavos, código de 4 dígitos (2P CCCC $$$$,$$ V)',
    layout: { prefijos: ALL_PREFIXES, codigo_digitos: 4, valor: 'precio', decimales: 2 },
  },
];

/** The check digit of the first 12 digits of an EAN-13 (weights 1 and 3 from the left). */
export function ean13CheckDigit(first12: string): number {
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(first12[i]) * (i % 2 === 0 ? 1 : 3);
  return (10 - (sum % 10)) % 10;
}

export const isValidEan13 = (code: string) => /^\d{13}$/.test(code) && ean13CheckDigit(code) === Number(code[12]);

export type ScaleRead =
  | { codigo: string; valor: 'peso'; /** Thousandths of a kilo. */ cantidad: number }
  | { codigo: string; valor: 'precio'; /** Cents. */ importe: number }
  | { error: string };

/**
 * What a scanned code says under the business's layout: null when it is not a scale label (not 13
 * digits, or another prefix), an error when it is one with a wrong check digit or no value.
 */
export function readScaleLabel(code: string, layout: ScaleLayout): ScaleRead | null {
  const c = code.trim();
  if (!/^\d{13}$/.test(c) || !layout.prefijos.includes(c.slice(0, 2))) return null;
  if (!isValidEan13(c)) {
    return { error: `La etiqueta de balanza «${c}» tiene mal el dígito verificador: volvé a escanearla.` };
  }
  const codigo = c.slice(2, 2 + layout.codigo_digitos);
  const digits = Number(c.slice(2 + layout.codigo_digitos, 12));
  if (digits === 0)
    return { error: `La etiqueta de balanza «${c}» no trae ${layout.valor === 'peso' ? 'peso' : 'precio'}.` };
  if (layout.valor === 'peso') return { codigo, valor: 'peso', cantidad: digits * 10 ** (3 - layout.decimales) };
  return { codigo, valor: 'precio', importe: digits * 10 ** (2 - layout.decimales) };
}

/** The item code of a label matches a product's code as typed or as a number ("01281" and "1281"). */
export function sameScaleCode(labelCode: string, productCode: string | null): boolean {
  if (!productCode) return false;
  const p = productCode.trim();
  if (p === labelCode) return true;
  return /^\d+$/.test(p) && Number(p) === Number(labelCode);
}

/**
 * "3*7795791241239", "3 x 7795791241239", "1,5*queso": a quantity typed before the code or the
 * search. `x` counts only before something without spaces, so a name like "2x1 promo" is a search.
 */
export function splitQuantity(text: string): { cantidadTexto: string | null; termino: string } {
  const t = text.trim();
  const m = /^(\d+(?:[.,]\d{1,3})?)\s*(?:\*|[xX×](?=\s*\S+$))\s*(\S.*)$/.exec(t);
  return m ? { cantidadTexto: m[1], termino: m[2].trim() } : { cantidadTexto: null, termino: t };
}
