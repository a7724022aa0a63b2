import { index, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { businesses } from './businesses.js';
import { users } from './users.js';

/** An invitation to join a business by e-mail (API-CONTRACT §14.5); the link carries `token`. */
export const invitations = pgTable(
  'invitations',
  {
    id: uuid('id').notNull().defaultRandom(),
    businessId: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    rol: text('rol', { enum: ['admin', 'empleado'] })
      .notNull()
      .default('empleado'),
    mensaje: text('mensaje'),
    token: text('token').notNull(),
    estado: text('estado', { enum: ['pendiente', 'aceptada', 'revocada'] })
      .notNull()
      .default('pendiente'),
    invitadoPor: uuid('invitado_por').references(() => users.id, { onDelete: 'set null' }),
    expiraEn: timestamp('expira_en', { withTimezone: true }).notNull(),
    creadaEn: timestamp('creada_en', { withTimezone: true }).notNull().defaultNow(),
    aceptadaEn: timestamp('aceptada_en', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ name: 'invitations_pkey', columns: [t.id, t.businessId] }),
    uniqueIndex('invitations_token_key').on(t.token, t.businessId),
    index('invitations_business_idx').on(t.businessId, t.creadaEn),
  ],
);
