import { Type } from 'typebox';
import { hidden, type ControlPlugin } from '../../edge/control-plugin.js';
import { Field, ResponseOf, Ruuid, StringEnum } from '../../schemas/common.js';
import { recordPress } from './evaluation.service.js';
import { BUTTON_PRESSES, ButtonEvent, RuleFiring } from './schemas.js';

const PressFlags = Type.Object({
  button: Ruuid(),
  press: StringEnum(BUTTON_PRESSES),
  durationMs: Type.Optional(Type.Integer({ minimum: 0, maximum: 600_000, description: 'pressDurationMillis' })),
  at: Type.Optional(Type.Integer({ minimum: 0, description: 'epoch ms of the press; default now' })),
});

/** `gatehouse simulate press --button B --press SINGLE`: a button reports a press; its rules are evaluated. */
export const ruleSimulateRoutes: ControlPlugin = (app, deps) => {
  app.post(
    '/press',
    { schema: { ...hidden, body: PressFlags, response: { 200: ResponseOf({ event: Field(ButtonEvent), firings: Field(Type.Array(RuleFiring)) }) } } },
    async (request) => {
      const { button, press, durationMs, at } = request.body;
      return { error: false, ...(await recordPress(deps, { sensorUuid: button, press, pressDurationMs: durationMs, timestampMs: at })) };
    },
  );
};
