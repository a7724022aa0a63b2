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

export type Business = z.infer<typeof businessSchema>;

export const businessSchema = z.object({
  id: z.string(),
  nombre: z.string(),
  tipo: z.string().nullable(),
  descripcion: z.string().nullable(),
  cuit: z.string().nullable(),
  creada_por: z.string(),
  creada_en: z.string(),
  rol: z.enum(['admin', 'empleado']),
  es_creador: z.boolean(),
});

export const businessCreatedSchema = z.object({
  message: z.string(),
  business_id: z.string(),
  business: businessSchema,
});

/** GET /businesses/debug/{email}: the caller's own memberships, for support. */
export const accountDebugSchema = z.object({
  user_id: z.string(),
  email: z.string(),
  total_relationships: z.number(),
  total_businesses: z.number(),
  memberships: z.array(
    z.object({
      business_id: z.string(),
      nombre: z.string(),
      rol: z.string(),
      estado: z.string(),
      es_creador: z.boolean(),
      tiene_permisos: z.boolean(),
      tiene_configuracion: z.boolean(),
      categorias_sistema: z.boolean(),
    }),
  ),
});

/** POST /businesses/repair/{email}: what the repair created. */
export const accountRepairSchema = z.object({
  message: z.string(),
  user_id: z.string(),
  total_businesses: z.number(),
  orphaned_businesses_found: z.number(),
  relationships_repaired: z.number(),
  permisos_reparados: z.number(),
  configuraciones_reparadas: z.number(),
  categorias_reparadas: z.number(),
});
