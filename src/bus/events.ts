/** The typed map of everything that travels on the bus: name to payload. */
import type { ChangeEvent } from '../store/change-event.js';

/** A delivery was added to the outbox (src/outbox): the workers of every instance look for due ones. */
export interface OutboxEnqueued {
  orgUuid: string;
}

/** An API key was revoked: every instance forgets it and closes the stream sessions it opened. */
export interface KeyRevoked {
  orgUuid: string;
  keyId: string;
}

/**
 * The store was reset or restored (control API): every in-memory position (the stream's sequencers, relock and
 * relay timers, caches) is rebuilt from the store.
 */
export interface StoreReplaced {
  kind: 'reset' | 'restore';
}

/** Permission groups or a user's group changed: every instance forgets the rights it cached. */
export interface PermissionsChanged {
  orgUuid: string;
}

/** A partner's grant for a client organization was withdrawn: its stream sessions there close at once. */
export interface PartnerRevoked {
  partnerOrgUuid: string;
  clientOrgUuid: string;
}

export interface BusEvents {
  change: ChangeEvent;
  'store.replaced': StoreReplaced;
  'outbox.enqueued': OutboxEnqueued;
  'key.revoked': KeyRevoked;
  'permissions.changed': PermissionsChanged;
  'partner.revoked': PartnerRevoked;
}

export type BusEventName = keyof BusEvents;
