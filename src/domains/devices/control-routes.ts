import { hidden, type ControlPlugin } from '../../edge/control-plugin.js';
import { SimulateRelayDiscoveryBody, SimulateRelayDiscoveryResponse } from './relays/schemas.js';
import { reportDiscovery } from './relays/third-party.service.js';

/**
 * The devices simulator under `/_gatehouse/simulate`: a relay camera or NVR reports a third-party camera it found
 * (`gatehouse simulate relay-discovery --device <uuid> --mac <mac> [--rtsp <url>]`), through the same service.
 */
export const deviceSimulateRoutes: ControlPlugin = (app, deps) => {
  app.post(
    '/relay-discovery',
    { schema: { ...hidden, body: SimulateRelayDiscoveryBody, response: { 200: SimulateRelayDiscoveryResponse } } },
    async (request) => {
      const { device, mac, ip, manufacturer, model, codec, rtsp, at } = request.body;
      return { error: false, ...(await reportDiscovery(deps, { deviceUuid: device, mac, ip, manufacturer, model, codec, rtspUrl: rtsp, atMs: at })) };
    },
  );
};
