import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './embedded.js';

/** These servers run the embedded PostgreSQL, also when the suite itself runs on DATABASE_URL (CI). */
function embeddedEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.DATABASE_URL;
  return env;
}

// The real server, built from these sources (tsc -b is incremental: quick when up to date).
const root = fileURLToPath(new URL('../../../..', import.meta.url));
const mainJs = path.join(root, 'apps/api/dist/main.js');

interface Run {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function startServer(dataDir: string, port: number, script = mainJs): Run {
  let out = '';
  const child = spawn(process.execPath, [script], {
    cwd: root,
    env: { ...embeddedEnv(), DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (c) => (out += String(c)));
  child.stderr?.on('data', (c) => (out += String(c)));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return { child, output: () => out, exited };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function health(port: number): Promise<number> {
  try {
    return (await fetch(`http://127.0.0.1:${port}/api/v1/health`, { signal: AbortSignal.timeout(3_000) })).status;
  } catch {
    return 0;
  }
}

/** Polls until the health check answers `status` (the run's output is in the failure message). */
async function waitForHealth(port: number, status: number, run?: Run, limit = 120_000) {
  const until = Date.now() + limit;
  let last = 0;
  while (Date.now() < until) {
    last = await health(port);
    if (last === status) return;
    if (run && run.child.exitCode !== null) break;
    await sleep(200);
  }
  throw new Error(`health ${last}, se esperaba ${status}\n${run?.output() ?? ''}`);
}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const postmasterPid = (dataDir: string) =>
  Number(readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);

const base = mkdtempSync(path.join(tmpdir(), 'mostrador-crash-'));
chmodSync(base, 0o755); // the embedded server may run as the system user postgres
const dataDir = path.join(base, 'data');
const runs: Run[] = [];
const run = (dir: string, port: number, script?: string) => {
  const r = startServer(dir, port, script);
  runs.push(r);
  return r;
};

beforeAll(() => {
  execFileSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-b', 'apps/api'], {
    cwd: root,
    stdio: 'inherit',
  });
}, 180_000);

afterAll(async () => {
  for (const r of runs) if (r.child.exitCode === null && r.child.signalCode === null) r.child.kill('SIGTERM');
  await Promise.all(runs.map((r) => Promise.race([r.exited, sleep(15_000)])));
  for (const r of runs) if (r.child.exitCode === null && r.child.signalCode === null) r.child.kill('SIGKILL');
  // A server left by a failed assertion: stop it so that the folder can go.
  for (const dir of [dataDir]) {
    const pidFile = path.join(dir, 'postgres', 'postmaster.pid');
    if (existsSync(pidFile)) {
      const pid = postmasterPid(dir);
      if (isAlive(pid)) process.kill(pid, 'SIGQUIT');
    }
  }
  await sleep(500);
  rmSync(base, { recursive: true, force: true });
}, 60_000);

describe('npm start after a crash, a second start, and a dead database', () => {
  let port = 0;
  let first: Run;

  it('starts on a new data directory', async () => {
    port = await freePort();
    first = run(dataDir, port);
    await waitForHealth(port, 200, first);
    expect(readFileSync(path.join(dataDir, 'mostrador.pid'), 'utf8')).toMatch(
      new RegExp(`^${first.child.pid} \\d+\\n$`),
    );
  }, 180_000);

  it('refuses a second start on the same data with a clear Spanish message', async () => {
    const second = run(dataDir, await freePort());
    expect(await second.exited).not.toBe(0);
    expect(second.output()).toContain(`Los datos de ${dataDir} ya están en uso por otro Mostrador en marcha`);
    expect(second.output()).toContain(`(proceso ${first.child.pid})`);
    expect(second.output()).not.toMatch(/^undefined$/m);
    // seed:demo while the server runs gets the same answer.
    const seed = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/db/seed-demo.ts'], {
      cwd: root,
      env: { ...embeddedEnv(), DATA_DIR: dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let seedOut = '';
    seed.stderr?.on('data', (c) => (seedOut += String(c)));
    const seedCode = await new Promise((r) => seed.once('exit', r));
    expect(seedCode).not.toBe(0);
    expect(seedOut).toContain('ya están en uso por otro Mostrador en marcha');
    // The first one goes on serving.
    expect(await health(port)).toBe(200);
  }, 60_000);

  it('refuses a port in use with a clear Spanish message, before touching the data', async () => {
    const other = path.join(base, 'otro');
    const busy = run(other, port);
    expect(await busy.exited).not.toBe(0);
    expect(busy.output()).toContain(`El puerto ${port} ya está en uso`);
    expect(busy.output()).toContain(`PORT=${port + 1} npm start`);
    expect(existsSync(path.join(other, 'postgres'))).toBe(false);
  }, 60_000);

  it('restarts its embedded PostgreSQL when it dies, and the health check recovers', async () => {
    const before = postmasterPid(dataDir);
    process.kill(before, 'SIGKILL');
    const until = Date.now() + 60_000;
    while (Date.now() < until && (await health(port)) === 200 && isAlive(before)) await sleep(50);
    await waitForHealth(port, 200, first, 60_000);
    const after = postmasterPid(dataDir);
    expect(after).not.toBe(before);
    expect(isAlive(after)).toBe(true);
    expect(first.output()).toContain(
      'El PostgreSQL embebido se detuvo (señal SIGKILL); reiniciándolo (intento 1 de 5)',
    );
    expect(first.child.exitCode).toBeNull();
  }, 90_000);

  it('after kill -9 of the server, the next start stops the leftover PostgreSQL and serves', async () => {
    const leftover = postmasterPid(dataDir);
    first.child.kill('SIGKILL');
    await first.exited;
    expect(isAlive(leftover)).toBe(true); // still holding the data directory
    const again = run(dataDir, port);
    await waitForHealth(port, 200, again);
    expect(isAlive(leftover)).toBe(false);
    expect(postmasterPid(dataDir)).not.toBe(leftover);
    expect(again.output()).not.toMatch(/^undefined$/m);
    // Ctrl-C / SIGTERM stops both cleanly and frees the data directory.
    again.child.kill('SIGTERM');
    expect(await again.exited).toBe(0);
    expect(existsSync(path.join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
    expect(existsSync(path.join(dataDir, 'mostrador.pid'))).toBe(false);
  }, 180_000);

  it('exits non-zero with a clear message when its dead PostgreSQL cannot be started again', async () => {
    const server = run(dataDir, port);
    await waitForHealth(port, 200, server);
    const pid = postmasterPid(dataDir);
    const pgPort = Number(readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[3]);
    process.kill(pid, 'SIGKILL');
    // Something else takes PostgreSQL's port: every restart fails.
    const squatter = createServer();
    for (let i = 0; i < 100; i++) {
      const ok = await new Promise<boolean>((resolve) => {
        squatter.once('error', () => resolve(false));
        squatter.listen(pgPort, '127.0.0.1', () => resolve(true));
      });
      if (ok) break;
      await sleep(20);
    }
    try {
      expect(await server.exited).toBe(1);
    } finally {
      squatter.close();
    }
    expect(server.output()).toContain(
      'El PostgreSQL embebido se detuvo (señal SIGKILL) y no se pudo reiniciar tras 5 intentos',
    );
    expect(existsSync(path.join(dataDir, 'mostrador.pid'))).toBe(false);
  }, 120_000);
});
