// A real local SMTP peer for the e2e run: accepts every message and lists them over HTTP
// (GET /messages) so a spec can open the link of a confirmation e-mail.
import { createServer } from 'node:http';
import { SMTPServer } from 'smtp-server';

const smtpPort = Number(process.env.SMTP_PORT ?? 2526);
const httpPort = Number(process.env.HTTP_PORT ?? 2527);
const messages = [];

const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  onData(stream, session, callback) {
    let raw = '';
    stream.on('data', (c) => (raw += c.toString('utf8')));
    stream.on('end', () => {
      messages.push({ to: session.envelope.rcptTo.map((r) => r.address), raw, at: new Date().toISOString() });
      callback();
    });
  },
});
smtp.listen(smtpPort, '127.0.0.1');

createServer((req, res) => {
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify(messages));
}).listen(httpPort, '127.0.0.1');
