import { connect, type AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

export interface SmtpSink {
  url: string;
  messages: ReceivedMail[];
  /** Every connection and every RCPT TO the server saw, refused or not. */
  stats: { connections: number; recipients: number };
  close(): Promise<void>;
}

/**
 * A real SMTP server on loopback (smtp-server, in-process) that keeps what it receives. Recipients for
 * which `refuse` is true are answered 550, as a server that refuses the mailbox does.
 */
export async function startSmtpSink(options: { refuse?: (address: string) => boolean } = {}): Promise<SmtpSink> {
  const messages: ReceivedMail[] = [];
  const stats = { connections: 0, recipients: 0 };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onConnect(_session, callback) {
      stats.connections++;
      callback();
    },
    onRcptTo(address, _session, callback) {
      stats.recipients++;
      if (options.refuse?.(address.address)) return callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }));
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const mailFrom = session.envelope.mailFrom;
        messages.push({
          from: mailFrom ? mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, messages, stats, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** Whether a connection to the loopback port is refused (nothing listens on it). */
function refuses(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (e: NodeJS.ErrnoException) => resolve(e.code === 'ECONNREFUSED'));
  });
}

/**
 * An SMTP URL on which nothing listens: a port below 1024, checked to refuse. No test server can be given it (a
 * port of 0 is drawn from the ephemeral range, far above), where a port freed a moment before could be taken by a
 * server of a test running beside it before the mail client reaches it.
 */
export async function closedSmtpUrl(): Promise<string> {
  for (const port of [1, 3, 5, 7, 9]) if (await refuses(port)) return `smtp://127.0.0.1:${port}`;
  throw new Error('every low port tried (1, 3, 5, 7, 9) accepts connections on 127.0.0.1');
}
