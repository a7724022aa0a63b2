import { z } from 'zod';
import { normalizeCuit } from './cuit.js';
import { optText, reqText } from './validation.js';

export const BUSINESS_TYPES = [
  'Comercio',
  'Servicio',
  'Restaurante',
  'Tienda',
  'Consultorio',
  'Taller',
  'Otro',
] as const;

export const cuit = () =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? null : v),
    z
      .string()
      .transform((v, ctx) => {
        const n = normalizeCuit(v);
        if (!n) {
          ctx.addIssue({ code: 'custom', message: 'CUIT/CUIL no válido.' });
          return z.NEVER;
        }
        return n;
      })
      .nullable()
      .optional(),
  );

export const businessInput = z.object({
  nombre: z.preprocess(
    (v) => (typeof v === 'string' ? v.trim() : v),
    z
      .string({ error: 'El nombre del negocio es obligatorio.' })
      .min(1, { error: 'El nombre del negocio es obligatorio.' })
      .max(100),
  ),
  tipo: optText(50),
  descripcion: optText(500),
  cuit: cuit(),
});
export type BusinessInput = z.input<typeof businessInput>;

export const businessUpdateInput = businessInput.partial().extend({ nombre: reqText(100).optional() });

export interface Business {
  id: string;
  nombre: string;
  tipo: string | null;
  descripcion: string | null;
  cuit: string | null;
  creada_por: string;
  creada_en: string;
  rol: 'admin' | 'empleado';
  es_creador: boolean;
}
