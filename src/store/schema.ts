import type { AuditLogTable, OrgTables } from '../domains/orgs/tables.js';
import type { AccessTables } from '../domains/access/tables.js';
import type { AccessGrantTables } from '../domains/access/grants/tables.js';
import type { DeviceTables } from '../domains/devices/tables.js';
import type { LocationTables } from '../domains/devices/locations/tables.js';
import type { PermissionTables } from '../domains/permissions/tables.js';
import type { EventTables } from '../domains/events/tables.js';
import type { FaceTables } from '../domains/faces/tables.js';
import type { InternalTables } from '../domains/internal/tables.js';
import type { RuleTables } from '../domains/rules/tables.js';
import type { GeneralRuleTables } from '../domains/rules/general/tables.js';
import type { IntegrationTables } from '../domains/integrations/tables.js';
import type { WebhookTables } from '../domains/integrations/webhooks/tables.js';
import type { OutboxTables } from '../outbox/tables.js';
import type { RecordTables } from '../records/tables.js';
import type { ScheduleTables } from '../domains/schedules/tables.js';
import type { AccessLockdownTables } from '../domains/access/access-lockdown.tables.js';
import type { GuestTables } from '../domains/guests/tables.js';
import type { KeypadTables } from '../domains/access/keypads/tables.js';
import type { TimelineTables } from '../domains/timeline/tables.js';
import type { ChangeEventsTable, ChangePositionsTable, StoreIdentityTable } from './change-tables.js';
import type { SecretKeyChecksTable } from './secret-key-check.js';

/** The whole database: each domain declares its own tables, composed here. */
export interface DB
  extends
    OrgTables,
    DeviceTables,
    ScheduleTables,
    AccessTables,
    FaceTables,
    InternalTables,
    EventTables,
    IntegrationTables,
    WebhookTables,
    OutboxTables,
    RuleTables,
    GeneralRuleTables,
    LocationTables,
    PermissionTables,
    RecordTables,
    AccessGrantTables,
    AccessLockdownTables,
    GuestTables,
    KeypadTables,
    TimelineTables {
  audit_log: AuditLogTable;
  change_events: ChangeEventsTable;
  change_positions: ChangePositionsTable;
  store_identity: StoreIdentityTable;
  secret_key_checks: SecretKeyChecksTable;
}
