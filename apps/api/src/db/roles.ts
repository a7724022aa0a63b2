import { createHmac } from 'node:crypto';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { StartupError } from '../lib/startup-error.js';
import type { Tx } from './client.js';

/**
 * Two roles (docs/decisions/0010-database-roles.md): the owner of DATABASE_URL (or the embedded
 * superuser) runs the migrations and owns every table; requests run as the app role, which owns
 * nothing, may read and write the business tables, only read and add to the audit log and the
 * ledgers (but for their state columns, LEDGER_TABLES), and cannot see server_secrets nor create
 * tables or roles.
 */
export interface AppRole {
  /** Role name. */
  role: string;
  /** Connection string of the requests' pool. */
  url: string;
}

/** Tables the app role never touches: owner-only (kept for startup and maintenance). */
const OWNER_ONLY_TABLES = ['server_secrets'];
/** Tables the app role may read and add to, never change or empty. */
const APPEND_ONLY_TABLES = ['audit_log'];

/**
 * The ledgers (docs/decisions/0032-append-only-ledgers.md): the app role reads them and adds rows;
 * a correction is a new row (a void, a return, an adjustment, a reversal). It may UPDATE only the
 * state columns named here (a void's marks, a turno's closing, a comprobante's life with ARCA),
 * and DELETE none, except finance_movements, whose manual movements the contract lets the user
 * edit and delete (what is left, in the decision). Deleting a business, a product or a purchase
 * still removes their rows: ON DELETE CASCADE runs with the rights of the tables' owner.
 */
export const LEDGER_TABLES: Readonly<Record<string, { update?: readonly string[]; delete?: true }>> = {
  sales: {
    update: ['estado', 'anulada_en', 'anulada_por', 'anulada_turno_id', 'motivo_anulacion', 'conciliar'],
  },
  sale_items: { update: ['anulada'] },
  sale_payments: {},
  cobros: {},
  devoluciones: {},
  devolucion_items: {},
  turnos: { update: ['estado', 'cerrado_por', 'cerrado_en', 'observaciones'] },
  turno_movimientos: {},
  turno_arqueos: {},
  stock_movements: {},
  // A comprobante is pendiente until ARCA answers; a rejected one is sent again with its values
  // computed anew. Its sale, its return and the invoice it cancels never change.
  comprobantes: {
    update: [
      'tipo',
      'entorno',
      'emisor',
      'emisor_cuit',
      'punto_venta',
      'numero',
      'enviado_en',
      'fecha',
      'estado',
      'cae',
      'cae_vencimiento',
      'intentos',
      'proximo_intento',
      'error_codigo',
      'error_mensaje',
      'receptor_nombre',
      'receptor_condicion_iva',
      'receptor_doc_tipo',
      'receptor_doc_nro',
      'receptor_domicilio',
      'total',
      'neto',
      'iva',
      'tributos',
      'exento',
      'no_gravado',
      'alicuotas',
      'lineas',
      'concepto',
      'servicio_desde',
      'servicio_hasta',
      'vencimiento_pago',
      // A pendiente factura issued under a CAEA during an outage, and its report (decision 0047).
      'emision',
      'caea_informe',
      'caea_generado_en',
      'actualizado_en',
    ],
  },
  precios_historial: {},
  cotizaciones: {},
  listas_proveedor_aplicadas: { update: ['deshecha_en'] },
  purchase_receptions: { update: ['revertida_en'] },
  purchase_reception_items: {},
  // Remitos (decision 0056): only their state moves (facturado with its sale, or anulado).
  remitos: { update: ['estado', 'venta_id', 'facturado_en', 'anulado_en', 'anulado_por', 'motivo_anulacion'] },
  remito_items: {},
  // What happened to a remito's invoicing (migration 0071): facturado, or pendiente again after a void.
  remito_eventos: {},
  // Money given back through Mercado Pago (decision 0052): a correction is a new refund.
  mercadopago_reembolsos: {},
  // Cheques (decision 0057): a cheque's state and whom it was endorsed to change; its history is
  // cheque_eventos, and what it paid of a supplier's payables is cheque_pagos.
  cheques: { update: ['estado', 'proveedor_id', 'actualizado_en'] },
  cheque_eventos: {},
  cheque_pagos: {},
  // Manual movements are edited and deleted (API-CONTRACT §10.2), a purchase's movement follows
  // the purchase (§13). What made a movement (its origin and links), who and when, never change.
  finance_movements: {
    update: [
      'tipo',
      'categoria_id',
      'monto',
      'fecha',
      'metodo_pago',
      'descripcion',
      'observaciones',
      'cliente_id',
      'anulado',
      'actualizado_en',
    ],
    delete: true,
  },
};

/** The app role of an owner: `<owner>_app` (two deployments with different owners never share it). */
export function appRoleName(owner: string): string {
  return `${owner}_app`.slice(0, 63);
}

/**
 * Its password, derived from the owner's, so that every instance with the same DATABASE_URL
 * computes the same one (nothing to store, no instance changes it under another). Without an
 * owner password (trust, peer, .pgpass) there is none: such a server needs APP_DATABASE_URL
 * unless it trusts the connection.
 */
export function appRolePassword(ownerPassword: string, role: string): string | null {
  if (!ownerPassword) return null;
  return createHmac('sha256', ownerPassword).update(`mostrador:rol-de-la-app:${role}`).digest('base64url');
}

/** The owner's URL with the app role as user (and its password, if any). */
export function appUrlFor(ownerUrl: string, role: string, password: string | null): string {
  const u = new URL(ownerUrl);
  u.username = encodeURIComponent(role);
  u.password = password ? encodeURIComponent(password) : '';
  return u.toString();
}

/** The user of a connection string (libpq's default: the system user, as pg does). */
export function userOf(url: string): string {
  const u = new URL(url);
  return decodeURIComponent(u.username) || process.env.PGUSER || process.env.USER || '';
}

async function canConnect(url: string): Promise<unknown> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 15_000 });
  try {
    await c.connect();
    await c.query('SELECT 1');
    return null;
  } catch (e) {
    return e;
  } finally {
    await c.end().catch(() => {});
  }
}

const ROLE_ATTRIBUTES = 'LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS NOINHERIT';
/** Two starts creating or changing the role at once (roles are shared by the whole server). */
const RACES = new Set(['42710', '23505', 'XX000', '40001', '40P01']);

const errText = (e: unknown) => (e instanceof Error ? e.message : String(e));

/**
 * Creates the app role when missing, or puts back its attributes and password when they are not
 * what they should be; nothing when it already logs in as it should (the usual start). Safe when
 * many processes, on any database of the server, do it at once.
 */
export async function ensureAppRole(ownerUrl: string): Promise<AppRole> {
  const owner = new pg.Client({ connectionString: ownerUrl });
  await owner.connect();
  try {
    const {
      rows: [me],
    } = await owner.query<{ name: string }>('SELECT current_user AS name');
    const role = appRoleName(me.name);
    const password = appRolePassword(new URL(ownerUrl).password || process.env.PGPASSWORD || '', role);
    const url = appUrlFor(ownerUrl, role, password);
    let failure: unknown = null;
    for (let attempt = 0; ; attempt++) {
      const { rows } = await owner.query<{ ok: boolean }>(
        `SELECT rolcanlogin AND NOT (rolsuper OR rolcreaterole OR rolcreatedb OR rolreplication OR rolbypassrls) AS ok
           FROM pg_roles WHERE rolname = $1`,
        [role],
      );
      if (rows[0]?.ok) {
        failure = await canConnect(url);
        if (!failure) return { role, url };
      }
      if (attempt >= 8) break;
      const secret = password === null ? 'NULL' : owner.escapeLiteral(password);
      const verb = rows.length ? 'ALTER' : 'CREATE';
      try {
        await owner.query(`${verb} ROLE ${owner.escapeIdentifier(role)} ${ROLE_ATTRIBUTES} PASSWORD ${secret}`);
      } catch (e) {
        const code = (e as { code?: string }).code ?? '';
        if (code === '42501') {
          throw new StartupError(
            `El usuario ${me.name} de DATABASE_URL no puede crear el rol ${role} con el que Mostrador atiende los pedidos (${errText(e)}). ` +
              'Dale el permiso CREATEROLE, o creá vos un usuario sin privilegios y pasalo en APP_DATABASE_URL (README, Operación).',
          );
        }
        if (!RACES.has(code)) throw e;
        await new Promise((r) => setTimeout(r, 50 + Math.random() * 200));
      }
    }
    throw new StartupError(
      `Mostrador no pudo conectarse a la base de datos como ${role}, el usuario sin privilegios con el que atiende los pedidos (${errText(failure)}). ` +
        'Permití que ese usuario se conecte (pg_hba.conf), o creá vos un usuario sin privilegios y pasalo en APP_DATABASE_URL (README, Operación).',
    );
  } finally {
    await owner.end().catch(() => {});
  }
}

/**
 * The app role's privileges on this database, set again from nothing (so tables added by the
 * migrations are covered and nothing else is left over). Runs in the migrations' transaction,
 * under their lock: every start sees them complete.
 */
export async function grantAppRole(tx: Tx, role: string): Promise<void> {
  const r = sql.identifier(role);
  const tables = (names: string[]) =>
    sql.join(
      names.map((n) => sql.identifier(n)),
      sql`, `,
    );
  await tx.execute(sql`REVOKE ALL ON ALL TABLES IN SCHEMA public FROM ${r}`);
  await tx.execute(sql`REVOKE ALL ON ALL SEQUENCES IN SCHEMA public FROM ${r}`);
  await tx.execute(sql`GRANT USAGE ON SCHEMA public TO ${r}`);
  await tx.execute(sql`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ${r}`);
  await tx.execute(sql`REVOKE UPDATE, DELETE ON ${tables(APPEND_ONLY_TABLES)} FROM ${r}`);
  // Revoking the table's UPDATE leaves no column's either: the grants below are the only ones.
  await tx.execute(sql`REVOKE UPDATE, DELETE ON ${tables(Object.keys(LEDGER_TABLES))} FROM ${r}`);
  for (const [table, rights] of Object.entries(LEDGER_TABLES)) {
    if (rights.update?.length) {
      const columns = sql.join(
        rights.update.map((c) => sql.identifier(c)),
        sql`, `,
      );
      await tx.execute(sql`GRANT UPDATE (${columns}) ON ${sql.identifier(table)} TO ${r}`);
    }
    if (rights.delete) await tx.execute(sql`GRANT DELETE ON ${sql.identifier(table)} TO ${r}`);
  }
  await tx.execute(sql`REVOKE ALL ON ${tables(OWNER_ONLY_TABLES)} FROM ${r}`);
  await tx.execute(sql`GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO ${r}`);
  // The searches' security-definer functions (migration 0055, decision 0031): not granted to PUBLIC.
  await tx.execute(
    sql`GRANT EXECUTE ON FUNCTION ${sql.raw([...SEARCH_FUNCTIONS, ...SEARCH_ROW_FUNCTIONS].map((f) => `${f}(text[])`).join(', '))} TO ${r}`,
  );
}

/** The searches that answer the rows themselves (migration 0066): the product list. */
export const SEARCH_ROW_FUNCTIONS = ['buscar_productos_filas'] as const;

/** The searches' functions (migration 0055): the ids of the current business's rows that match. */
export const SEARCH_FUNCTIONS = [
  'buscar_productos',
  'buscar_servicios',
  'buscar_clientes',
  'buscar_proveedores',
  'buscar_tareas',
] as const;
