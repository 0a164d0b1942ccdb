import { fail } from '../../../errors.js';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** An e-mail address as stored: trimmed and lowercase; refused when it is not one. */
export function normaliseEmail(email: string): string {
  const e = email.trim().toLowerCase();
  if (!EMAIL.test(e) || e.length > 254) throw fail('INVALID_VALUE', `email: "${email}" is not an e-mail address`);
  return e;
}
