/** A failed start, with its cause and what to do, in Spanish: printed as it is, exit code 1. */
export class StartupError extends Error {
  override name = 'StartupError';
}

/** A file-system error on `where` (the data directory), in Spanish. */
export function describeFsError(e: unknown, where: string): Error {
  const code = (e as NodeJS.ErrnoException)?.code;
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') {
    return new StartupError(
      `No hay permiso para escribir en ${where}. Revisá los permisos de la carpeta o elegí otra con DATA_DIR.`,
    );
  }
  if (code === 'ENOSPC')
    return new StartupError(`El disco está lleno: no se puede escribir en ${where}. Liberá espacio.`);
  return e instanceof Error ? e : new Error(String(e));
}

/** What to print when the start fails: never just "undefined". */
export function startupMessage(e: unknown, ctx: { port?: number; host?: string; dataDir?: string } = {}): string {
  if (e instanceof StartupError) return e.message;
  const err = e as NodeJS.ErrnoException | undefined;
  const code = err?.code;
  if (code === 'EADDRINUSE') {
    return (
      `El puerto ${ctx.port} ya está en uso: otro programa (o Mostrador, abierto en otra ventana) lo está usando. ` +
      `Cerralo o elegí otro puerto, por ejemplo: PORT=${(ctx.port ?? 3000) + 1} npm start`
    );
  }
  if (code === 'EADDRNOTAVAIL') return `La dirección ${ctx.host} no pertenece a esta máquina: revisá HOST.`;
  if (code === 'EACCES' && err?.syscall === 'listen') {
    return `No hay permiso para escuchar en el puerto ${ctx.port} (los puertos menores a 1024 requieren permisos de administrador). Elegí otro con PORT.`;
  }
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS' || code === 'ENOSPC') {
    return describeFsError(err, err?.path ?? ctx.dataDir ?? 'el directorio de datos').message;
  }
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === '28P01' || code === '3D000') {
    return `No se pudo conectar a la base de datos de DATABASE_URL (${err?.message ?? code}). Revisá que el servidor esté en marcha y la dirección, el usuario y la contraseña.`;
  }
  const detail = err instanceof Error ? err.message || err.name : e === undefined ? '' : String(e);
  return `Mostrador no pudo arrancar: ${detail || 'causa desconocida'}.`;
}
