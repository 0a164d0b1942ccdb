/**
 * What a badge system's event means for access, read once when it is recorded: whether access was refused,
 * the activity it is searched by, whether entry was made, and whether it is an anomaly (a badge not Active was
 * used, access was granted and no entry made, or the face at the door was not the badge holder's).
 */
export interface BadgeAccess {
  activity: 'BADGE_AUTHORIZED' | 'BADGE_UNAUTHORIZED';
  entryMade: boolean;
  anomaly: boolean;
}

const REFUSED = /DENI|UNAUTHORI|REJECT|INVALID/i;

export function badgeAccess(e: { eventType: string; badgeStatus: string | null; entryMade: boolean | null; faceMismatch: boolean }): BadgeAccess {
  const refused = REFUSED.test(e.eventType);
  const entryMade = e.entryMade ?? !refused;
  const inactiveBadge = e.badgeStatus !== null && e.badgeStatus.trim().toLowerCase() !== 'active';
  return {
    activity: refused ? 'BADGE_UNAUTHORIZED' : 'BADGE_AUTHORIZED',
    entryMade,
    anomaly: e.faceMismatch || inactiveBadge || (!refused && !entryMade),
  };
}
