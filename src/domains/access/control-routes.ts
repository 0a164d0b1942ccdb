import { fail } from '../../errors.js';
import { hidden, type ControlPlugin } from '../../edge/control-plugin.js';
import { presentCredential, reportControllerOnline, reportDoorPosition, requestToExit } from './door-events/door-devices.service.js';
import { activationTokenStatus, issueActivationToken } from './keypads/service.js';
import { SimulateKeypadActivationBody, SimulateKeypadActivationResponse } from './keypads/schemas.js';
import * as s from './schemas.js';
import { SimulateComponentBody, SimulateComponentResponse } from './components/schemas.js';
import { reportComponent } from './components/reports.service.js';
import { componentEventAnswer, componentEventAnswers } from './door-events/event-answer.js';

/** `--online` arrives as `{online: true}` and `--offline` as `{offline: true}`; the two must not disagree. */
function onlineOf({ online, offline }: { online?: boolean; offline?: boolean }): boolean {
  const says = [online, offline === undefined ? undefined : !offline].filter((v): v is boolean => v !== undefined);
  if (says.length === 0 || new Set(says).size > 1) throw fail('INVALID_VALUE', 'controller: give one of --online or --offline');
  return says[0];
}

/**
 * The door simulator under `/_gatehouse/simulate`: what a door's reader, position sensor, request-to-exit
 * and controller report (`gatehouse simulate badge|door|rex|controller|component ...`), through the same services a
 * controller's report would reach. Each answers the records it created.
 */
export const accessSimulateRoutes: ControlPlugin = (app, deps) => {
  app.post('/badge', { schema: { ...hidden, body: s.SimulateBadgeBody, response: { 200: s.SimulateBadgeResponse } } }, async (request) => {
    const { door, hex, type, at } = request.body;
    const outcome = await presentCredential(deps, { doorUuid: door, hex, type, atMs: at });
    return {
      error: false,
      granted: outcome.decision.granted,
      reason: outcome.decision.reason,
      ...outcome,
      credentialReceivedEvent: componentEventAnswer(outcome.credentialReceivedEvent),
      relayEvents: componentEventAnswers(outcome.relayEvents),
    };
  });
  app.post('/door', { schema: { ...hidden, body: s.SimulateDoorBody, response: { 200: s.SimulateDoorResponse } } }, async (request) => ({
    error: false,
    ...(await reportDoorPosition(deps, { doorUuid: request.body.door, position: request.body.position, atMs: request.body.at })),
  }));
  app.post('/rex', { schema: { ...hidden, body: s.SimulateRexBody, response: { 200: s.SimulateRexResponse } } }, async (request) => ({
    error: false,
    ...(await requestToExit(deps, { doorUuid: request.body.door, atMs: request.body.at })),
  }));
  app.post('/controller', { schema: { ...hidden, body: s.SimulateControllerBody, response: { 200: s.SimulateControllerResponse } } }, async (request) => ({
    error: false,
    ...(await reportControllerOnline(deps, { doorUuid: request.body.door, online: onlineOf(request.body) })),
  }));
  // A hardware component reports: an input changes, a REX is pressed, a reader reads (components/reports.service.ts).
  app.post('/component', { schema: { ...hidden, body: SimulateComponentBody, response: { 200: SimulateComponentResponse } } }, async (request) => {
    const { component, state, hex, at } = request.body;
    return { error: false, ...(await reportComponent(deps, { componentUuid: component, state, hex, atMs: at })) };
  });
  // A keypad not yet claimed: it asks for an activation token to show, then polls whether it was claimed.
  app.post(
    '/keypad-activation',
    { schema: { ...hidden, body: SimulateKeypadActivationBody, response: { 200: SimulateKeypadActivationResponse } } },
    async (request) => {
      const { token, ...keypad } = request.body;
      return { error: false, ...(token === undefined ? await issueActivationToken(deps, keypad) : await activationTokenStatus(deps, token)) };
    },
  );
};
