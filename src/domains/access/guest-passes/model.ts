export const GUEST_PASS_LIFECYCLES = ['ACTIVE', 'SUSPENDED', 'EXPIRED', 'ARCHIVED'] as const;
export type GuestPassLifecycle = (typeof GUEST_PASS_LIFECYCLES)[number];

/**
 * A guest pass: a time-limited credential for a guest at the doors it names, from passStartTimeMs
 * (inclusive) to passEndTimeMs (exclusive). Its value is answered once, when the pass is created, and kept
 * sealed; a presented value is matched by digest. Past its end an ACTIVE or SUSPENDED pass reads EXPIRED.
 */
export interface GuestPassRecord {
  uuid: string;
  orgUuid: string;
  locationUuid: string;
  doorUuids: string[];
  lifecycle: GuestPassLifecycle;
  note: string | null;
  principalType: 'GUEST';
  /** The guest the pass is for, by e-mail address (the guest management family's key), when it names one. */
  guestEmail: string | null;
  passStartTimeMs: number;
  passEndTimeMs: number;
  /** The value's last characters, to tell passes apart; never the value. */
  credentialValueHint: string | null;
  createdAtMillis: number;
  updatedAtMillis: number;
}

/** The lifecycle a pass reads at an instant: one whose end has passed is EXPIRED unless it was archived. */
export function lifecycleAt(pass: Pick<GuestPassRecord, 'lifecycle' | 'passEndTimeMs'>, atMs: number): GuestPassLifecycle {
  return (pass.lifecycle === 'ACTIVE' || pass.lifecycle === 'SUSPENDED') && atMs >= pass.passEndTimeMs ? 'EXPIRED' : pass.lifecycle;
}
