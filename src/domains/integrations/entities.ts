/**
 * The entities the integrations domain announces on the stream, merged into the bus's typed map (src/bus/entities.ts):
 * one line each, `NAME: RecordType; // what it is`. docs/streaming.md's list is generated from these files.
 */
import type { BadgeEventRecord, SeekPointRecord } from './badge-events.service.js';
import type { IntegrationChangeRecord } from './settings.js';
import type { NotificationRecord } from './smart-sensor-events.service.js';
import type { EndpointRecord } from './webhooks/endpoints.service.js';

declare module '../../bus/entities.js' {
  interface ChangeEntities {
    BADGE_EVENT: BadgeEventRecord; // a badge event from a badge integration
    INTEGRATION: IntegrationChangeRecord; // an integration's public settings
    NOTIFICATION: NotificationRecord; // a notification about a policy alert
    SEEK_POINT: SeekPointRecord; // a labelled moment of a camera's footage
    WEBHOOK_ENDPOINT: EndpointRecord; // an organization webhook URL or subscription (secret masked)
  }
}
