import type { Deps } from '../deps.js';
import { accessRoutes } from '../domains/access/credentials/routes.js';
import { accessGrantRoutes } from '../domains/access/grants/routes.js';
import { accessGroupRoutes } from '../domains/access/groups/routes.js';
import { doorLabelRoutes } from '../domains/access/doors/door-labels.routes.js';
import { credentialChangeRoutes } from '../domains/access/credentials/credential-changes.routes.js';
import { changeRoutes } from '../domains/changes/routes.js';
import { eventRoutes } from '../domains/events/routes.js';
import { faceRoutes } from '../domains/faces/routes.js';
import { internalRoutes } from '../domains/internal/routes.js';
import { deviceRoutes } from '../domains/devices/routes.js';
import { locationRoutes } from '../domains/devices/locations/routes.js';
import { badgeWebhookRoutes } from '../domains/integrations/inbound-routes.js';
import { integrationRoutes } from '../domains/integrations/routes.js';
import { orgRoutes } from '../domains/orgs/routes.js';
import { userRoutes } from '../domains/orgs/users/routes.js';
import { partnerRoutes } from '../domains/orgs/partners/routes.js';
import { permissionRoutes } from '../domains/orgs/permissions/routes.js';
import { auditRoutes } from '../domains/audit/routes.js';
import { ruleRoutes } from '../domains/rules/routes.js';
import { scheduleRoutes } from '../domains/schedules/routes.js';
// access-lockdown (issue 21)
import { lockdownRoutes } from '../domains/access/lockdowns/routes.js';
import { doorRoutes } from '../domains/access/doors/routes.js';
import { exceptionRoutes } from '../domains/access/exceptions/routes.js';
import { guestPassRoutes } from '../domains/access/guest-passes/routes.js';
import { componentEventRoutes } from '../domains/access/door-events/routes.js';
import { doorControllerRoutes } from '../domains/access/door-controllers/routes.js';
import { threatCaseRoutes } from '../domains/events/threat-cases/routes.js';
import { guestRoutes } from '../domains/guests/guests.routes.js';
// devices in full (issue 19): badge readers and keypads
import { badgeReaderRoutes } from '../domains/access/badge-readers/routes.js';
import { keypadRoutes } from '../domains/access/keypads/routes.js';
// timeline reads (seekpoints, presence windows)
import { componentSeekpointRoutes } from '../domains/access/door-events/component-seekpoints.routes.js';
import { eventTimelineRoutes } from '../domains/events/seekpoints/routes.js';
import { sensorTimelineRoutes } from '../domains/devices/sensors/sensor-timeline.routes.js';
import type { ApiApp } from '../edge/operation.js';

/** The explicit list of domain plugins: each registers its operations under /api. */
export const domainPlugins: Array<(app: ApiApp, deps: Deps) => void | Promise<void>> = [
  orgRoutes,
  deviceRoutes,
  scheduleRoutes,
  accessRoutes,
  eventRoutes,
  faceRoutes,
  internalRoutes,
  ruleRoutes,
  integrationRoutes,
  changeRoutes,
  locationRoutes,
  userRoutes,
  permissionRoutes,
  auditRoutes,
  partnerRoutes,
  // access groups, grants and revocations, door labels (issue 21)
  accessGroupRoutes,
  accessGrantRoutes,
  doorLabelRoutes,
  credentialChangeRoutes,
  // access-lockdown (issue 21)
  lockdownRoutes,
  doorRoutes,
  exceptionRoutes,
  guestPassRoutes,
  guestRoutes,
  componentEventRoutes,
  doorControllerRoutes,
  threatCaseRoutes,
  // devices in full (issue 19): badge readers and keypads
  badgeReaderRoutes,
  keypadRoutes,
  // timeline reads (seekpoints, presence windows)
  componentSeekpointRoutes,
  eventTimelineRoutes,
  sensorTimelineRoutes,
];

/**
 * Inbound webhooks of third-party systems, under /webhooks: outside /api, so not API-key authenticated;
 * each plugin authenticates its own posts (a signature over the raw body, for instance).
 */
export const inboundPlugins: Array<(app: ApiApp, deps: Deps) => void | Promise<void>> = [badgeWebhookRoutes];
