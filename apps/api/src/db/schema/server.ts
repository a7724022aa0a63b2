import { index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/** Secrets shared by every instance on this database (the token signing key: `jwt`). */
export const serverSecrets = pgTable('server_secrets', {
  nombre: text('nombre').primaryKey(),
  valor: text('valor').notNull(),
  creadoEn: timestamp('creado_en', { withTimezone: true }).notNull().defaultNow(),
});

/** Rate-limit counters in their current window, shared by every instance (lib/rate-limit.ts). */
export const rateLimitWindows = pgTable(
  'rate_limit_windows',
  {
    limite: text('limite').notNull(),
    /** A hash of what is limited (e-mail, address, user), not the value itself. */
    clave: text('clave').notNull(),
    intentos: integer('intentos').notNull(),
    venceEn: timestamp('vence_en', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ name: 'rate_limit_windows_pkey', columns: [t.limite, t.clave] }),
    index('rate_limit_windows_vence_idx').on(t.venceEn),
  ],
);
