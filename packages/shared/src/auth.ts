import { z } from 'zod';
import { email, optText, reqText } from './validation.js';

/** Why a new password is refused beyond its length (the API also checks a long list of common ones). */
export const PASSWORD_MESSAGES = {
  common: 'La contraseña es demasiado común.',
  repeated: 'La contraseña no puede ser un mismo carácter repetido. Elegí otra.',
} as const;

/** One character, repeated: "aaaaaaaa", "11111111". */
export const isRepeatedCharacter = (p: string) => /^(.)\1*$/su.test(p);

/**
 * A short list of very common passwords that are refused (API-CONTRACT §2), so the forms say so
 * before sending; the API checks the long list of a maintained package (modules/auth/passwords.ts).
 */
export const COMMON_PASSWORDS = new Set([
  '12345678',
  '123456789',
  '1234567890',
  'password',
  'password1',
  'password123',
  'qwerty123',
  'qwertyuiop',
  '11111111',
  '00000000',
  '87654321',
  'iloveyou',
  'abc12345',
  'abcd1234',
  'contraseña',
  'contrasena',
  'contrasenia',
  'argentina',
  'boca1234',
  'river1234',
  'asdfghjk',
  'asdf1234',
  'qwerty12',
  '1q2w3e4r',
  'admin123',
  'welcome1',
  'sunshine',
  'football',
  'baseball',
  'superman',
  'princesa',
  'mostrador',
  '12341234',
  '11223344',
  'passw0rd',
]);

const password = (tooShort: string) =>
  z
    .string({ error: 'Este campo es obligatorio.' })
    .min(8, { error: tooShort })
    .max(128, { error: 'Debe tener como máximo 128 caracteres.' })
    .refine((p) => !COMMON_PASSWORDS.has(p.toLowerCase()), { error: PASSWORD_MESSAGES.common })
    .refine((p) => !isRepeatedCharacter(p), { error: PASSWORD_MESSAGES.repeated });

export const newPassword = () => password('La contraseña debe tener al menos 8 caracteres.');

export const signupInput = z.object({
  email: email(),
  password: newPassword(),
  nombre: reqText(100),
  apellido: optText(100),
});
export type SignupInput = z.input<typeof signupInput>;

export const loginInput = z.object({
  username: email(),
  password: z.string({ error: 'Este campo es obligatorio.' }).min(1),
});

export const profileInput = z.object({
  nombre: reqText(100).optional(),
  apellido: optText(100),
  telefono: optText(30),
});
export type ProfileInput = z.input<typeof profileInput>;

export const changePasswordInput = z.object({
  current_password: z.string({ error: 'Este campo es obligatorio.' }).min(1),
  new_password: password('La nueva contraseña debe tener al menos 8 caracteres.'),
});

export const emailInput = z.object({ email: email() });
export const resetPasswordInput = z.object({ token: reqText(500), new_password: newPassword() });

export type User = z.infer<typeof userSchema>;

export const userSchema = z.object({
  id: z.string(),
  nombre: z.string(),
  apellido: z.string().nullable(),
  email: z.string(),
  telefono: z.string().nullable(),
  email_confirmed_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  last_sign_in_at: z.string().nullable(),
});

export type LoginResponse = z.infer<typeof loginResponseSchema>;

export const loginResponseSchema = z.object({
  access_token: z.string(),
  token_type: z.literal('bearer'),
  expires_in: z.number(),
  user: userSchema.pick({ id: true, nombre: true, apellido: true, email: true }),
});

export const signupResultSchema = z.object({
  message: z.string(),
  email: z.string(),
  requires_confirmation: z.boolean(),
  clave_consulta: z.string().optional(),
});

export const activationResultSchema = z.object({ message: z.string(), email: z.string(), status: z.string() });

export const confirmationStatusSchema = z.object({
  email: z.string(),
  confirmed: z.boolean(),
  is_confirmed: z.boolean(),
});

export const emailMessageSchema = z.object({ message: z.string(), email: z.string() });

/** GET /health: 200 ok, 503 while the database is away. */
export const healthSchema = z.object({ status: z.enum(['ok', 'error']), detail: z.string().optional() });
