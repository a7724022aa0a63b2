import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll } from 'vitest';

export interface CapturedMail {
  to: string[];
  raw: string;
}

/** A real local SMTP peer that keeps what it receives; closed after the file. */
export async function startSmtpPeer() {
  const messages: CapturedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (c: Buffer) => (raw += c.toString('utf8')));
      stream.on('end', () => {
        messages.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    /** The link of the last message to `to` whose path matches. */
    linkTo(to: string, pathPart: string): string {
      const mail = [...messages].reverse().find((m) => m.to.includes(to));
      const body = mail?.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=') ?? '';
      const link = body.match(new RegExp(`https?://\\S+${pathPart}\\?token=[\\w-]+`))?.[0];
      if (!link) throw new Error(`No hay enlace ${pathPart} para ${to}`);
      return link;
    },
  };
}
