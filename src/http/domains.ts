import type { FastifyInstance } from 'fastify';
import type { Deps } from '../deps.js';
import type { ApiApp } from '../edge/operation.js';
import { badgeWebhookRoutes } from '../domains/integrations/inbound-routes.js';
import { honeywellWebhookRoutes } from '../domains/integrations/partners/inbound-routes.js';
import { scheduleRoutes } from '../domains/schedules/routes.js';
import { orgRoutes } from '../domains/orgs/routes.js';
import { orgUploadRoutes } from '../domains/orgs/uploads/routes.js';
import { registrationRoutes } from '../domains/orgs/registrations/routes.js';
import { floorplanRoutes } from '../domains/devices/locations/floorplans.routes.js';
import { orgSettingsRoutes } from '../domains/orgs/settings/routes.js';
import { ssoRoutes } from '../domains/orgs/sso/routes.js';
import { oauthEndpointRoutes, oauthRoutes } from '../domains/orgs/oauth/routes.js';
import { apiTokenRoutes } from '../domains/orgs/api-tokens/routes.js';
import { userRoutes } from '../domains/orgs/users/routes.js';
import { permissionRoutes } from '../domains/orgs/permissions/routes.js';
import { partnerRoutes } from '../domains/orgs/partners/routes.js';
import { auditRoutes } from '../domains/audit/routes.js';
import { changeRoutes } from '../domains/changes/routes.js';
import { internalRoutes } from '../domains/internal/routes.js';
import { locationRoutes } from '../domains/devices/locations/routes.js';
import { cameraRoutes } from '../domains/devices/cameras/routes.js';
import { relayRoutes } from '../domains/devices/relays/routes.js';
import { cameraDetailRoutes } from '../domains/devices/cameras/camera-details.routes.js';
import { cameraFleetRoutes } from '../domains/devices/cameras/camera-fleet.routes.js';
import { facetedConfigRoutes } from '../domains/devices/cameras/faceted-config.routes.js';
import { footageBoxRoutes } from '../domains/devices/cameras/footage-boxes.routes.js';
import { cameraMediaRoutes } from '../domains/devices/media-uris/routes.js';
import { sharedLiveStreamRoutes } from '../domains/devices/live-shares/routes.js';
import { rawHttpStreamRoutes } from '../domains/devices/live-shares/raw-http-streams.routes.js';
import { sensorRoutes } from '../domains/devices/sensors/routes.js';
import { sensorTimelineRoutes } from '../domains/devices/sensors/sensor-timeline.routes.js';
import { videoWallRoutes } from '../domains/devices/video-walls/routes.js';
import { tvConfigRoutes } from '../domains/devices/video-walls/tv-configs.routes.js';
import { cameraMaintenanceRoutes } from '../domains/devices/cameras/camera-maintenance.routes.js';
import { audioPlaybackRoutes } from '../domains/devices/audio-playback/routes.js';
import { elevatorLandingRoutes } from '../domains/devices/elevators/routes.js';
import { monitoringRoutes } from '../domains/devices/monitoring/routes.js';
import { deviceLifecycleRoutes } from '../domains/devices/lifecycle/routes.js';
import { deviceReadRoutes } from '../domains/devices/device-reads/routes.js';
import { cloudArchivingRoutes } from '../domains/devices/cloud-archiving/routes.js';
import { faceRoutes } from '../domains/faces/routes.js';
import { guestRoutes } from '../domains/guests/guests.routes.js';
import { kioskRoutes } from '../domains/guests/kiosks.routes.js';
import { accessRoutes } from '../domains/access/credentials/routes.js';
import { credentialChangeRoutes } from '../domains/access/credentials/credential-changes.routes.js';
import { doorRoutes } from '../domains/access/doors/routes.js';
import { doorLabelRoutes } from '../domains/access/doors/door-labels.routes.js';
import { componentEventRoutes } from '../domains/access/door-events/routes.js';
import { componentSeekpointRoutes } from '../domains/access/door-events/component-seekpoints.routes.js';
import { accessGroupRoutes } from '../domains/access/groups/routes.js';
import { accessGrantRoutes } from '../domains/access/grants/routes.js';
import { lockdownRoutes } from '../domains/access/lockdowns/routes.js';
import { exceptionRoutes } from '../domains/access/exceptions/routes.js';
import { licenseRoutes } from '../domains/access/licenses/routes.js';
import { guestPassRoutes } from '../domains/access/guest-passes/routes.js';
import { keypadRoutes } from '../domains/access/keypads/routes.js';
import { badgeReaderRoutes } from '../domains/access/badge-readers/routes.js';
import { doorControllerRoutes } from '../domains/access/door-controllers/routes.js';
import { hardwareComponentRoutes } from '../domains/access/components/routes.js';
import { policyRoutes } from '../domains/policies/routes.js';
import { policyWindowRoutes } from '../domains/policies/windows.routes.js';
import { alertRoutes } from '../domains/events/alerts/routes.js';
import { alertFeedRoutes } from '../domains/events/alerts/alert-feed.routes.js';
import { clipRoutes } from '../domains/events/clips/routes.js';
import { clipGroupRoutes } from '../domains/events/clip-groups/routes.js';
import { sharedClipGroupRoutes } from '../domains/events/shared-clip-groups/routes.js';
import { spliceRoutes } from '../domains/events/splices/routes.js';
import { timelapseRoutes } from '../domains/events/timelapses/routes.js';
import { reportRoutes } from '../domains/events/reports/routes.js';
import { countReportRoutes } from '../domains/events/reports/count-reports.routes.js';
import { summaryReportRoutes } from '../domains/events/summary-reports/routes.js';
import { exportRoutes } from '../domains/events/exports/routes.js';
import { vehicleRoutes } from '../domains/events/vehicles/routes.js';
import { eventTimelineRoutes } from '../domains/events/seekpoints/routes.js';
import { sceneQueryRoutes } from '../domains/events/scene-queries/routes.js';
import { threatCaseRoutes } from '../domains/events/threat-cases/routes.js';
import { motionGridRoutes } from '../domains/events/motion-grids/routes.js';
import { objectSearchRoutes } from '../domains/events/object-search/routes.js';
import { integrationRoutes } from '../domains/integrations/routes.js';
import { chatbotRoutes } from '../domains/chatbot/routes.js';
import { webhookRoutes } from '../domains/integrations/webhooks/routes.js';
import { eventListenerRoutes } from '../domains/integrations/webhooks/listeners.routes.js';
import { integrationPartnerRoutes } from '../domains/integrations/partners/routes.js';
import { ruleRoutes } from '../domains/rules/routes.js';
import { generalRuleRoutes } from '../domains/rules/general/routes.js';
import { doorbellRuleRoutes } from '../domains/rules/doorbell/routes.js';
import { notificationRoutes } from '../domains/notifications/routes.js';
import { supportRoutes } from '../domains/support/routes.js';
import { partnerClientRoutes } from '../domains/partner-clients/routes.js';

/**
 * The explicit list of domain plugins, by domain in the order of .dependency-cruiser.cjs, each sub-family's
 * routes once: each registers its operations under /api (CONTRIBUTING.md maps each URL prefix to its folder).
 */
export const domainPlugins: Array<(app: ApiApp, deps: Deps) => void | Promise<void>> = [
  // schedules
  scheduleRoutes,
  // orgs
  orgRoutes,
  orgUploadRoutes,
  orgSettingsRoutes,
  ssoRoutes,
  oauthRoutes,
  apiTokenRoutes,
  userRoutes,
  permissionRoutes,
  partnerRoutes,
  registrationRoutes,
  // audit, changes, internal
  auditRoutes,
  changeRoutes,
  internalRoutes,
  // devices
  locationRoutes,
  cameraRoutes,
  relayRoutes,
  cameraDetailRoutes,
  cameraFleetRoutes,
  facetedConfigRoutes,
  footageBoxRoutes,
  cameraMediaRoutes,
  sharedLiveStreamRoutes,
  rawHttpStreamRoutes,
  sensorRoutes,
  sensorTimelineRoutes,
  videoWallRoutes,
  tvConfigRoutes,
  cameraMaintenanceRoutes,
  audioPlaybackRoutes,
  floorplanRoutes,
  elevatorLandingRoutes,
  monitoringRoutes,
  deviceLifecycleRoutes,
  deviceReadRoutes,
  cloudArchivingRoutes,
  // faces, guests
  faceRoutes,
  guestRoutes,
  kioskRoutes,
  // access
  accessRoutes,
  credentialChangeRoutes,
  doorRoutes,
  doorLabelRoutes,
  componentEventRoutes,
  componentSeekpointRoutes,
  accessGroupRoutes,
  accessGrantRoutes,
  lockdownRoutes,
  exceptionRoutes,
  licenseRoutes,
  guestPassRoutes,
  keypadRoutes,
  badgeReaderRoutes,
  doorControllerRoutes,
  hardwareComponentRoutes,
  // policies
  policyRoutes,
  policyWindowRoutes,
  // events
  alertRoutes,
  alertFeedRoutes,
  clipRoutes,
  clipGroupRoutes,
  sharedClipGroupRoutes,
  spliceRoutes,
  timelapseRoutes,
  reportRoutes,
  countReportRoutes,
  summaryReportRoutes,
  exportRoutes,
  vehicleRoutes,
  eventTimelineRoutes,
  sceneQueryRoutes,
  threatCaseRoutes,
  motionGridRoutes,
  objectSearchRoutes,
  // integrations
  integrationRoutes,
  webhookRoutes,
  eventListenerRoutes,
  integrationPartnerRoutes,
  // chatbot
  chatbotRoutes,
  // rules
  ruleRoutes,
  generalRuleRoutes,
  doorbellRuleRoutes,
  // notifications
  notificationRoutes,
  // support
  supportRoutes,
  // partner-clients
  partnerClientRoutes,
];

/**
 * Inbound webhooks of third-party systems, under /webhooks: outside /api, so not API-key authenticated;
 * each plugin authenticates its own posts (a signature over the raw body, for instance).
 */
export const inboundPlugins: Array<(app: ApiApp, deps: Deps) => void | Promise<void>> = [badgeWebhookRoutes, honeywellWebhookRoutes];

/**
 * Endpoints outside API-key authentication that authenticate their callers themselves: the OAuth flow's
 * authorization and token endpoints (a consent page that signs its user in, a client secret).
 */
export const publicPlugins: Array<(app: FastifyInstance, deps: Deps) => void | Promise<void>> = [oauthEndpointRoutes];
