import type { Activity } from '../../../schemas/activities.js';
import { raisePolicyAlert } from '../../events/alerts/service.js';
import { succeeded, type ActionFamily } from './action.js';

/** The alert trigger a press raises. */
const TRIGGERS: Record<string, Activity> = {
  SINGLE: 'BUTTON_SINGLE_PRESSED',
  INITIAL_PRESS: 'BUTTON_SINGLE_PRESSED',
  DOUBLE: 'BUTTON_DOUBLE_PRESSED',
  LONG: 'BUTTON_LONG_PRESSED',
  LONG_RELEASE: 'BUTTON_LONG_PRESSED',
};

/** `alertAction`: raises a policy alert on the button through the events service. */
export const alertActions: ActionFamily = ({ deps, actor, action, rule, event }) =>
  action.alertAction
    ? [
        {
          action: 'alertAction',
          async run() {
            const alert = await raisePolicyAlert(deps, actor, {
              deviceUuid: event.sensorUuid,
              // A general rule's alert is CUSTOM: the rule runner never fires on CUSTOM alerts, so a rule cannot feed itself.
              policyAlertTriggers: [event.type === 'RULE_FIRED' ? 'CUSTOM' : (TRIGGERS[event.buttonPress ?? ''] ?? 'CUSTOM')],
              timestampMs: event.timestampMs,
              textDescription:
                event.type === 'RULE_FIRED'
                  ? `${rule.name ?? 'Rule'}: ${(event.activities ?? []).join(', ')}`
                  : `${rule.name ?? 'Button rule'}: ${event.buttonPress} press`,
            });
            return succeeded(`policy alert ${alert.uuid}`);
          },
        },
      ]
    : [];
