import { fail } from '../../../errors.js';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** An e-mail address as stored: trimmed and lowercase; refused when it is not one. */
export function normaliseEmail(email: string): string {
  const e = email.trim().toLowerCase();
  if (!EMAIL.test(e) || e.length > 254) throw fail('INVALID_VALUE', `email: "${email}" is not an e-mail address`);
  return e;
}

/** The columns of an e-mail address: its stored (lowercase) form, and as it was given, which the user lists answer. */
export function emailColumns(email: string | null | undefined): { email: string | null; email_case_sensitive: string | null } {
  return email == null ? { email: null, email_case_sensitive: null } : { email: normaliseEmail(email), email_case_sensitive: email.trim() };
}
