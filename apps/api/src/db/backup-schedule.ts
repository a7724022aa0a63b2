import { listBackups, pruneBackups } from './backup.js';

const DAY = 86_400_000;
const HOUR = 3_600_000;

export interface BackupStatus {
  carpeta: string;
  /** When the newest good backup in the folder was made (its name), null when there is none. */
  ultima: Date | null;
  /** Why the last attempt failed, until one succeeds. */
  error: string | null;
}

export interface BackupSchedule {
  status(): BackupStatus;
  /** One check now: a backup when the newest is a day old or more (or there is none). */
  check(): Promise<void>;
  stop(): void;
}

/**
 * The running server's daily backup (decision 0055): checked 10 minutes after the start and every hour, a backup is
 * made when the newest in the folder is 24 hours old or more, then the folder keeps the newest `keep`.
 * A PC that was off at night gets its backup when it starts.
 */
export function scheduleBackups(opts: {
  folder: string;
  keep: number;
  backup: () => Promise<unknown>;
  now?: () => Date;
  log?: (level: 'info' | 'error', msg: string) => void;
  everyMs?: number;
  firstAfterMs?: number;
}): BackupSchedule {
  const now = opts.now ?? (() => new Date());
  let error: string | null = null;
  let running: Promise<void> | null = null;
  const last = () => listBackups(opts.folder)[0]?.at ?? null;
  const check = () => {
    running ??= (async () => {
      const at = last();
      if (at && now().getTime() - at.getTime() < DAY) return;
      try {
        await opts.backup();
        pruneBackups(opts.folder, opts.keep);
        error = null;
        opts.log?.('info', `Copia de seguridad diaria hecha en ${opts.folder}.`);
      } catch (e) {
        error = e instanceof Error ? e.message : String(e);
        opts.log?.('error', `No se pudo hacer la copia de seguridad diaria: ${error}`);
      }
    })().finally(() => {
      running = null;
    });
    return running;
  };
  const first = setTimeout(() => void check(), opts.firstAfterMs ?? 10 * 60_000);
  const timer = setInterval(() => void check(), opts.everyMs ?? HOUR);
  first.unref();
  timer.unref();
  return {
    status: () => ({ carpeta: opts.folder, ultima: last(), error }),
    check,
    stop: () => {
      clearTimeout(first);
      clearInterval(timer);
    },
  };
}
