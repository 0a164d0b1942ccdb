import type { Migration } from 'kysely';
import type { DialectName } from '../database.js';
import { foundation } from './0000-0099/0001-foundation.js';
import { sites } from './0000-0099/0002-sites.js';
import { config } from './0000-0099/0004-config.js';
import { access } from './0000-0099/0005-access.js';
import { events } from './0000-0099/0006-events.js';
import { faces } from './0000-0099/0007-faces.js';
import { integrations } from './0000-0099/0008-integrations.js';
import { rules } from './0000-0099/0009-rules.js';
import { relayOverrides } from './0000-0099/0010-relay-overrides.js';
import { keyLifetimes } from './0000-0099/0011-key-lifetimes.js';
import { fidelity } from './0000-0099/0012-fidelity.js';
import { secretKeyCheck } from './0000-0099/0014-secret-key-check.js';
import { changePositions } from './0000-0099/0015-change-positions.js';
import { orgStructure } from './0000-0099/0016-org-structure.js';
import { deviceEvents } from './0000-0099/0017-device-events.js';
import { eventsInFull } from './0000-0099/0018-events-in-full.js';
import { webhooks } from './0000-0099/0019-webhooks.js';
import { orgRecords } from './0000-0099/0020-org-records.js';
import { orgsFinished } from './0000-0099/0027-orgs.js';
import { webhookOrgCursors } from './0000-0099/0029-webhook-org-cursors.js';
import { reports } from './0000-0099/0032-reports.js';
import { accessGrants } from './0000-0099/0021-access-grants.js';
import { accessLockdown } from './0000-0099/0022-access-lockdown.js';
import { policiesRules } from './0000-0099/0030-policies-rules.js';
import { clips } from './0000-0099/0031-clips.js';
import { cameraMedia } from './0000-0099/0040-camera-media.js';
import { devicesInFull } from './0000-0099/0045-devices-in-full.js';
// events in full (issue 20): 0050-0054
import { eventFeedback } from './0000-0099/0050-event-feedback.js';
import { customEvents } from './0000-0099/0051-custom-events.js';
import { integrationSearch } from './0000-0099/0052-integration-search.js';
import { clipGroups } from './0000-0099/0053-clip-groups.js';
import { similarFaces } from './0000-0099/0054-similar-faces.js';
// timeline reads (seekpoints, presence windows): 0055-0059
import { timeline } from './0000-0099/0055-timeline.js';
// the platform's own clients (issue 33): 0120-0129
import { doorControllerRules } from './0100-0199/0120-door-controller-rules.js';
import { chatbot } from './0100-0199/0121-chatbot.js';
// the remaining catalogue operations (issue 34): OAuth and API-token applications, the audit source, hardware
// components and relays, licenses, the device singles, support tickets and the partner's hardware, shipments
import { oauth } from './0100-0199/0136-oauth.js';
import { auditSource } from './0100-0199/0140-audit-source.js';
import { hardwareComponentsRelays } from './0100-0199/0141-hardware-components-relays.js';
import { licenses } from './0100-0199/0145-licenses.js';
import { devicesMisc } from './0100-0199/0150-devices-misc.js';
import { supportAndPartnerHardware } from './0100-0199/0160-support.js';
import { hardwareRegistrations } from './0100-0199/0163-hardware-registrations.js';
// fields the platform's clients read (issue 33)
import { clientFields } from './0100-0199/0166-client-fields.js';

/**
 * Every migration, in order: their files are kept in a folder per hundred (`0000-0099/`, `0100-0199/`, ...). Names sort in the order they run; each is a function of the dialect so
 * that the few dialect-specific spellings (serial ids) stay in src/store.
 */
export function allMigrations(dialect: DialectName): Record<string, Migration> {
  return {
    '0001-foundation': foundation(dialect),
    '0002-sites': sites(),
    '0004-config': config(dialect),
    '0005-access': access(dialect),
    '0006-events': events(dialect),
    '0007-faces': faces(dialect),
    '0008-integrations': integrations(dialect),
    '0009-rules': rules(),
    '0010-relay-overrides': relayOverrides(),
    '0011-key-lifetimes': keyLifetimes(),
    '0012-fidelity': fidelity(),
    '0014-secret-key-check': secretKeyCheck(),
    '0015-change-positions': changePositions(),
    '0016-org-structure': orgStructure(),
    '0017-device-events': deviceEvents(dialect),
    '0018-events-in-full': eventsInFull(dialect),
    '0019-webhooks': webhooks(dialect),
    '0020-org-records': orgRecords(),
    '0027-orgs': orgsFinished(),
    '0029-webhook-org-cursors': webhookOrgCursors(),
    '0021-access-grants': accessGrants(dialect),
    '0022-access-lockdown': accessLockdown(dialect),
    '0030-policies-rules': policiesRules(),
    '0031-clips': clips(),
    '0032-reports': reports(),
    '0040-camera-media': cameraMedia(),
    '0045-devices-in-full': devicesInFull(),
    // events in full (issue 20): 0050-0054
    '0050-event-feedback': eventFeedback(),
    '0051-custom-events': customEvents(),
    '0052-integration-search': integrationSearch(),
    '0053-clip-groups': clipGroups(),
    '0054-similar-faces': similarFaces(),
    // timeline reads (seekpoints, presence windows): 0055-0059
    '0055-timeline': timeline(dialect),
    // the platform's own clients (issue 33): 0120-0129
    '0120-door-controller-rules': doorControllerRules(),
    '0121-chatbot': chatbot(),
    // OAuth and API-token applications (issue 34)
    '0136-oauth': oauth(),
    // the audit rows' source address and user agent (issue 33)
    '0140-audit-source': auditSource(),
    '0141-hardware-components-relays': hardwareComponentsRelays(),
    // licenses (issue 34)
    '0145-licenses': licenses(),
    // the remaining device-side operations (issue 34)
    '0150-devices-misc': devicesMisc(dialect),
    // support tickets, the partner's hardware pool and deals (issue 34)
    '0160-support': supportAndPartnerHardware(dialect),
    // shipments of hardware and pending registrations (issue 34)
    '0163-hardware-registrations': hardwareRegistrations(),
    // fields the platform's clients read (issue 33)
    '0166-client-fields': clientFields(),
  };
}
