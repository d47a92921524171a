import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** One mail an SMTP server took: the envelope, who signed in, and the message as sent. */
export interface ReceivedMail {
  from: string;
  to: string[];
  /** The username the client signed in with, or null. */
  user: string | null;
  /** The whole message: headers and body. */
  raw: string;
}

export interface CapturingSmtp {
  host: string;
  port: number;
  received: ReceivedMail[];
  /** Resolves with the next mail the server takes. */
  nextMail(timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

/**
 * A real SMTP server on 127.0.0.1 and a free port (or the one given), keeping every mail it takes. With `credentials`
 * it demands that login (and refuses others with 535, as real servers do); it offers no STARTTLS,
 * so the test needs no certificate.
 */
export async function startCapturingSmtp(credentials?: { username: string; password: string }, port = 0): Promise<CapturingSmtp> {
  const received: ReceivedMail[] = [];
  const waiting: Array<(mail: ReceivedMail) => void> = [];
  const server = new SMTPServer({
    logger: false,
    disabledCommands: credentials ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
    authOptional: !credentials,
    allowInsecureAuth: true,
    onAuth(auth, _session, callback) {
      if (credentials && auth.username === credentials.username && auth.password === credentials.password) {
        callback(null, { user: auth.username });
        return;
      }
      callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const mail: ReceivedMail = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          user: typeof session.user === 'string' ? session.user : null,
          raw: Buffer.concat(chunks).toString('utf8'),
        };
        received.push(mail);
        waiting.splice(0).forEach((resolve) => resolve(mail));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  const listening = (server.server.address() as AddressInfo).port;
  return {
    host: '127.0.0.1',
    port: listening,
    received,
    nextMail(timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no mail reached the SMTP server on port ${listening} within ${timeoutMs} ms`)),
          timeoutMs,
        );
        waiting.push((mail) => {
          clearTimeout(timer);
          resolve(mail);
        });
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A header of a raw message ("Subject", "From"), unfolded. */
export function headerOf(raw: string, name: string): string | null {
  const head = raw.split(/\r?\n\r?\n/)[0].replace(/\r?\n[ \t]+/g, ' ');
  const match = new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(head);
  return match ? match[1].trim() : null;
}
