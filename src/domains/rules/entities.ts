/**
 * The entities the rules domain announces on the stream, merged into the bus's typed map (src/bus/entities.ts):
 * one line each, `NAME: RecordType; // what it is`. docs/streaming.md's list is generated from these files.
 */
import type { DeviceCommandRecord } from './actions/device-commands.js';
import type { IntegrationCommandRecord } from './actions/integrations.js';
import type { LiveNotificationRecord } from './actions/live-notification.js';
import type { Rule, RulesEventRecord } from './general/schemas.js';
import type { RulePauseRecord } from './general/service.js';
import type { ButtonEvent, ButtonRule, RuleFiring } from './schemas.js';

declare module '../../bus/entities.js' {
  interface ChangeEntities {
    BUTTON_EVENT: ButtonEvent; // a button press
    BUTTON_RULE: ButtonRule | { ruleUuid: string; sensorUuid: string }; // a button rule (on DELETE: its ids)
    BUTTON_RULE_FIRING: RuleFiring; // a rule's firing and its actions' outcomes
    DEVICE_COMMAND: DeviceCommandRecord; // a command to a device
    INTEGRATION_COMMAND: IntegrationCommandRecord; // a command to a third-party integration
    LIVE_NOTIFICATION: LiveNotificationRecord; // a live notification of a rule's firing
    RULE: Rule; // a rule of the general engine (secrets masked)
    RULE_PAUSE: RulePauseRecord; // a pause of a rule
    RULES_EVENT_RECORD: RulesEventRecord; // a rule's firing (button rules too) and its actions' outcomes
  }
}
