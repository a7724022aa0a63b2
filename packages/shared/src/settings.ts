import { z } from 'zod';
import { scaleLayoutSchema } from './scale.js';

/** SPEC §9: fixed choices and defaults of the business settings. */
export const LOCALES = ['es-AR', 'es-ES', 'es-MX', 'es-CL', 'es-CO', 'pt-BR', 'en-US'] as const;
export const TIMEZONES = [
  'America/Argentina/Buenos_Aires',
  'America/Sao_Paulo',
  'America/Santiago',
  'America/Bogota',
  'America/Mexico_City',
  'Europe/Madrid',
  'America/New_York',
] as const;
export const TIMEZONE_LABELS: Record<(typeof TIMEZONES)[number], string> = {
  'America/Argentina/Buenos_Aires': 'Buenos Aires',
  'America/Sao_Paulo': 'São Paulo',
  'America/Santiago': 'Santiago',
  'America/Bogota': 'Bogotá',
  'America/Mexico_City': 'Ciudad de México',
  'Europe/Madrid': 'Madrid',
  'America/New_York': 'Nueva York',
};
export const CURRENCIES = ['ARS', 'USD', 'EUR', 'BRL', 'CLP', 'COP', 'MXN'] as const;
export const ALERT_SENSITIVITY = [
  { label: 'Baja', value: 30 },
  { label: 'Media', value: 15 },
  { label: 'Alta', value: 10 },
] as const;
export const MIN_DAYS_CHOICES = [15, 30, 60, 90] as const;

export const SETTINGS_DEFAULTS = {
  locale: 'es-AR',
  timezone: 'America/Argentina/Buenos_Aires',
  currency: 'ARS',
  sales_drop_threshold: 15,
  min_days_for_model: 30,
} as const;

export const MSG_THRESHOLD = 'El umbral de alertas debe estar entre 1% y 100%';
export const MSG_MIN_DAYS = 'Los días mínimos deben estar entre 7 y 365';

export const tenantSettingsInput = z.object({
  locale: z.enum(LOCALES, { error: 'Configuración regional no válida.' }).optional(),
  timezone: z.enum(TIMEZONES, { error: 'Zona horaria no válida.' }).optional(),
  currency: z.enum(CURRENCIES, { error: 'Moneda no válida.' }).optional(),
  sales_drop_threshold: z.coerce
    .number({ error: MSG_THRESHOLD })
    .min(1, { error: MSG_THRESHOLD })
    .max(100, { error: MSG_THRESHOLD })
    .refine((n) => Math.round(n * 100) === n * 100, { error: MSG_THRESHOLD })
    .optional(),
  min_days_for_model: z.coerce
    .number({ error: MSG_MIN_DAYS })
    .int({ error: MSG_MIN_DAYS })
    .min(7, { error: MSG_MIN_DAYS })
    .max(365, { error: MSG_MIN_DAYS })
    .optional(),
  /** The layout of the scale's labels; null when the shop does not use one. */
  balanza: scaleLayoutSchema.nullable().optional(),
  /** The POS asks for an open turno de caja before selling. */
  caja_requiere_turno: z.boolean({ error: 'Debe ser verdadero o falso.' }).optional(),
  /** A sale may take more than the stock: the stock goes negative and a notification says so. */
  vender_sin_stock: z.boolean({ error: 'Debe ser verdadero o falso.' }).optional(),
  /** Prices in dollars become pesos rounded to 1, 10 or 100 pesos (issue 17). */
  redondeo_precios: z
    .union([z.literal(1), z.literal(10), z.literal(100)], { error: 'Elegí redondear a $ 1, $ 10 o $ 100.' })
    .optional(),
  /** Arqueo a ciegas: members without full access count a turno without seeing what is expected. */
  arqueo_ciego: z.boolean({ error: 'Debe ser verdadero o falso.' }).optional(),
});
export type TenantSettingsInput = z.infer<typeof tenantSettingsInput>;

export type TenantSettings = z.infer<typeof tenantSettingsSchema>;

export const tenantSettingsSchema = z.object({
  id: z.string(),
  tenant_id: z.string(),
  locale: z.enum(LOCALES),
  timezone: z.enum(TIMEZONES),
  currency: z.enum(CURRENCIES),
  sales_drop_threshold: z.number(),
  min_days_for_model: z.number(),
  balanza: scaleLayoutSchema.nullable(),
  caja_requiere_turno: z.boolean(),
  vender_sin_stock: z.boolean(),
  redondeo_precios: z.number().optional(),
  arqueo_ciego: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});

/** One entry of GET /businesses/{id}/auditoria. */
export const auditEntrySchema = z.object({
  id: z.string(),
  fecha: z.string(),
  usuario: z.object({ id: z.string(), nombre: z.string(), email: z.string().nullable() }).nullable(),
  entidad: z.string(),
  entidad_id: z.string().nullable(),
  accion: z.string(),
  antes: z.unknown(),
  despues: z.unknown(),
  /** What the records the row mentions are called, by id. */
  nombres: z.record(z.string(), z.string()),
});
