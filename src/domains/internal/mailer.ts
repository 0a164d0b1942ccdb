export interface OutgoingMail {
  from: string;
  to: string;
  subject: string;
  text: string;
}

export type MailOutcome = { sent: true; response: string } | { sent: false; reason: string };

/** Bounds a send in time: a server that accepts the connection and then says nothing must not hold a call forever. */
export const MAIL_TIMEOUTS_MS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };

/**
 * Sends one message through the SMTP server of `smtpUrl` (smtp://, smtps://, with credentials in the URL),
 * and says whether the server accepted it: a refusal (5xx/4xx) or an unreachable server is an outcome,
 * not an exception.
 */
export async function sendMail(smtpUrl: string, mail: OutgoingMail): Promise<MailOutcome> {
  const { createTransport } = await import('nodemailer');
  const transport = createTransport({ url: smtpUrl, ...MAIL_TIMEOUTS_MS });
  try {
    const info = await transport.sendMail(mail);
    if (info.rejected.length > 0) return { sent: false, reason: `the mail server refused ${info.rejected.join(', ')}` };
    return { sent: true, response: info.response };
  } catch (e) {
    const err = e as Error & { responseCode?: number; response?: string; code?: string };
    if (err.responseCode) return { sent: false, reason: `the mail server refused the message: ${err.response ?? err.responseCode}` };
    return { sent: false, reason: `the mail server could not be reached: ${err.message}` };
  } finally {
    transport.close();
  }
}
