import { z } from 'zod';

/*
 * Autorización con PIN (issue 33, decision 0049): a member who holds a right at the counter (full
 * access, cambiar_precios, exceder_credito or a larger maximum discount) authorizes with their PIN
 * a sale the seller alone could not make.
 */

export const PIN_MIN = 4;
export const PIN_MAX = 6;

/** The refusals of record-sale another member may authorize with their PIN. */
export const AUTHORIZABLE_CODES = ['DISCOUNT_OVER_MAX', 'PRICE_CHANGE_FORBIDDEN', 'CREDIT_LIMIT'] as const;
export type AuthorizableCode = (typeof AUTHORIZABLE_CODES)[number];

/** Wrong PINs one member's PIN may take in PIN_WINDOW_MINUTES before it answers 429. */
export const PIN_FAILURES = 5;
export const PIN_WINDOW_MINUTES = 15;

export const AUTORIZACION_MESSAGES = {
  pinFormat: `El PIN tiene que tener de ${PIN_MIN} a ${PIN_MAX} números.`,
  pinWeak: 'Ese PIN es muy fácil de adivinar (números repetidos o seguidos): elegí otro.',
  pinSaved: 'PIN guardado. Ya podés autorizar en el mostrador de los negocios donde tenés el permiso.',
  pinRemoved: 'PIN eliminado.',
  wrongPassword: 'La contraseña actual es incorrecta.',
  wrongPin: 'El PIN no es correcto.',
  cannotAuthorize: 'Esa persona no puede autorizar en este negocio: elegí a alguien de la lista.',
  withoutRight: (nombre: string) => `${nombre} no tiene el permiso para autorizar esto: elegí a otra persona.`,
} as const;

/** Why a sale was refused or authorized, as the owner reads it in the change log. */
export const AUTORIZACION_ATTEMPTS = {
  wrongPin: 'PIN de autorización incorrecto',
  tooMany: 'Demasiados intentos de PIN',
  cannotAuthorize: 'Autorización de alguien que no es del negocio o no tiene PIN',
  withoutRight: 'Autorización de alguien sin el permiso',
} as const;

const pinOf = (v: string) => /^\d+$/.test(v) && v.length >= PIN_MIN && v.length <= PIN_MAX;

/** Every digit the same, or each one more (or one less) than the one before: 1111, 1234, 987654. */
export function isWeakPin(pin: string): boolean {
  const d = [...pin].map(Number);
  const steps = new Set(d.slice(1).map((x, i) => x - d[i]));
  return steps.size === 1 && [0, 1, -1].includes([...steps][0]);
}

export const pinField = () =>
  z.string({ error: AUTORIZACION_MESSAGES.pinFormat }).refine(pinOf, { error: AUTORIZACION_MESSAGES.pinFormat });

/** PUT /auth/pin: a new PIN, with the account's password (a session left open cannot set it). */
export const pinInput = z.object({
  pin: pinField().refine((p) => !isWeakPin(p), { error: AUTORIZACION_MESSAGES.pinWeak }),
  current_password: z.string({ error: 'Este campo es obligatorio.' }).min(1, { error: 'Este campo es obligatorio.' }),
});
export type PinInput = z.input<typeof pinInput>;

export const pinStatusSchema = z.object({ tiene_pin: z.boolean() });
export type PinStatus = z.infer<typeof pinStatusSchema>;

export const pinSavedSchema = pinStatusSchema.extend({ message: z.string() });

/** record-sale's `autorizacion`: who authorizes, and their PIN. */
export const autorizacionInput = z.object({
  usuario_id: z.uuid({ error: 'Identificador no válido.' }),
  pin: pinField(),
});
export type AutorizacionInput = z.input<typeof autorizacionInput>;

/** GET /businesses/{id}/autorizadores: the members with a PIN who hold some right at the counter. */
export const autorizadorSchema = z.object({
  usuario_id: z.string(),
  nombre: z.string(),
  /** Creator, admin or full access: may authorize all three. */
  acceso_total: z.boolean(),
  cambiar_precios: z.boolean(),
  exceder_credito: z.boolean(),
  /** Their own maximum discount in % (null: no limit). */
  descuento_maximo: z.number().nullable(),
});
export type Autorizador = z.infer<typeof autorizadorSchema>;
export const autorizadoresSchema = z.array(autorizadorSchema);

/** Whether a member may authorize a refusal of `code` (for the discount, how large it is in %). */
export function canAuthorize(a: Autorizador, code: AuthorizableCode, descuentoPorcentaje = 0): boolean {
  if (a.acceso_total) return true;
  if (code === 'CREDIT_LIMIT') return a.exceder_credito;
  if (a.cambiar_precios) return true;
  return code === 'DISCOUNT_OVER_MAX' && (a.descuento_maximo === null || a.descuento_maximo >= descuentoPorcentaje);
}
