import type { Activity } from '../../../schemas/activities.js';
import { raisePolicyAlert } from '../../events/alerts.service.js';
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
              policyAlertTriggers: [TRIGGERS[event.buttonPress ?? ''] ?? 'CUSTOM'],
              timestampMs: event.timestampMs,
              textDescription: `${rule.name ?? 'Button rule'}: ${event.buttonPress} press`,
            });
            return succeeded(`policy alert ${alert.uuid}`);
          },
        },
      ]
    : [];
