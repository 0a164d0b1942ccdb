import { Type } from 'typebox';
import { systemActor } from '../../deps.js';
import { fail } from '../../errors.js';
import { hidden, type ControlPlugin } from '../../edge/control-plugin.js';
import { Field, ResponseOf, Ruuid } from '../../schemas/common.js';
import { reportPlaybackStopped } from './audio-playback/service.js';
import { registerWithBatchToken } from './cameras/batch-registration.service.js';
import { completeFirmwareUpdate, simulatedCamera } from './cameras/camera-maintenance.service.js';
import { hardwareOnline } from './pending-registration.js';
import { findDeviceOfAnyOrg } from './service.js';
import { SimulateRelayDiscoveryBody, SimulateRelayDiscoveryResponse } from './relays/schemas.js';
import { reportDiscovery } from './relays/third-party.service.js';

const Flags = <P extends Parameters<typeof Type.Object>[0]>(properties: P) => Type.Object(properties, { additionalProperties: false });
const Reported = ResponseOf({ device: Field(Type.Any()), result: Field(Type.String()) });

/**
 * What cameras and audio gateways report on their own, under /_gatehouse/simulate: a camera finishes its firmware
 * update (`gatehouse simulate firmware --camera C [--failed]`), a camera registers itself with a batch token
 * (`gatehouse simulate batch-register --token T --serial S`), a shipped unit with a pending registration comes
 * online and registers as it says (`gatehouse simulate hardware-online --serial S`), an audio gateway stops playing
 * (`gatehouse simulate audio-stopped --gateway G`). Each goes through the service the REST operations share.
 */
export const deviceSimulateRoutes: ControlPlugin = (app, deps) => {
  app.post(
    '/firmware',
    { schema: { ...hidden, body: Flags({ camera: Ruuid(), failed: Type.Optional(Type.Boolean()) }), response: { 200: Reported } } },
    async (request) => {
      const { camera, actor } = await simulatedCamera(deps, request.body.camera, 'simulate.firmware');
      const updated = await completeFirmwareUpdate(deps, actor, camera.uuid, request.body.failed ?? false);
      return { error: false, device: updated, result: request.body.failed ? 'FAILED' : 'UPDATED' };
    },
  );
  app.post(
    '/batch-register',
    {
      schema: {
        ...hidden,
        body: Flags({
          token: Ruuid(),
          serial: Type.String({ minLength: 1, maxLength: 64 }),
          name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
        }),
        response: { 200: Reported },
      },
    },
    async (request) => {
      const { result, camera } = await registerWithBatchToken(deps, { token: request.body.token, serialNumber: request.body.serial, name: request.body.name });
      return { error: false, device: camera, result };
    },
  );
  app.post(
    '/hardware-online',
    { schema: { ...hidden, body: Flags({ serial: Type.String({ minLength: 1, maxLength: 64 }) }), response: { 200: Reported } } },
    async (request) => ({ error: false, device: await hardwareOnline(deps, request.body.serial), result: 'REGISTERED' }),
  );
  app.post('/audio-stopped', { schema: { ...hidden, body: Flags({ gateway: Ruuid() }), response: { 200: Reported } } }, async (request) => {
    const gateway = await findDeviceOfAnyOrg(deps, request.body.gateway);
    if (!gateway || gateway.deviceType !== 'AUDIO_GATEWAY') throw fail('NOT_FOUND', 'Audio gateway');
    const stopped = await reportPlaybackStopped(deps, systemActor(gateway.orgUuid, 'simulate.audio-stopped'), gateway.uuid);
    return { error: false, device: null, result: stopped ? 'STOPPED' : 'NOT_PLAYING' };
  });
  app.post(
    '/relay-discovery',
    { schema: { ...hidden, body: SimulateRelayDiscoveryBody, response: { 200: SimulateRelayDiscoveryResponse } } },
    async (request) => {
      const { device, mac, ip, manufacturer, model, codec, rtsp, at } = request.body;
      return { error: false, ...(await reportDiscovery(deps, { deviceUuid: device, mac, ip, manufacturer, model, codec, rtspUrl: rtsp, atMs: at })) };
    },
  );
};
