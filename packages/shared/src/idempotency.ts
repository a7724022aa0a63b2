/** Messages of the Idempotency-Key that every create honours (docs/decisions/0018-idempotent-creates.md). */
export const IDEMPOTENCY_MESSAGES = {
  mismatch:
    'Esta clave de idempotencia ya se usó con otros datos: no se guardó nada nuevo. Revisá la lista antes de repetirlo.',
  inProgress: 'Este pedido todavía se está procesando. Esperá unos segundos y revisá si se guardó antes de repetirlo.',
} as const;

/** What the web says when a request never reached the server (or its answer never came back). */
export const OFFLINE_MESSAGE = 'No se pudo conectar. Revisá la conexión y probá de nuevo: no se guardó nada todavía.';
