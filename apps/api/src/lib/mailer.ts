import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  /** true when an e-mail really leaves (SMTP configured). */
  readonly enabled: boolean;
  send(mail: Mail): Promise<void>;
}

/** SMTP when SMTP_URL is set; otherwise messages are written to the server log. */
export function createMailer(smtpUrl: string | undefined, from: string, log: FastifyBaseLogger): Mailer {
  if (!smtpUrl) {
    return {
      enabled: false,
      async send(mail) {
        log.info({ to: mail.to, subject: mail.subject }, `E-mail no enviado (SMTP no configurado):\n${mail.text}`);
      },
    };
  }
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    enabled: true,
    async send(mail) {
      await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text });
    },
  };
}
