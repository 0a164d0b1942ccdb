import type { Deps } from '../../../deps.js';
import { operation, type ApiApp } from '../../../edge/operation.js';
import { ResponseOf } from '../../../schemas/common.js';
import { flaggedChange } from '../cameras/camera-details.service.js';
import type { DeviceClass } from '../device-reads/device-events.service.js';
import * as s from './schemas.js';
import { deleteDevice, rebootDeviceOfClass, updateDeviceDetails } from './service.js';
import { SENSORS } from '../sensors/service.js';
import * as buttons from './buttons.service.js';

const CAMERA: DeviceClass = { kinds: ['CAMERA'], what: 'Camera' };

/** Details updates, deletes and reboots of sensors, gateways, cameras and doorbell cameras (issue 19). */
export function deviceLifecycleRoutes(app: ApiApp, deps: Deps): void {
  const details = (path: string, operationId: string, tag: string, cls: DeviceClass) =>
    operation(
      app,
      {
        path,
        operationId,
        summary: `Sets the flagged details of a ${cls.what.toLowerCase()}`,
        tags: [tag],
        body: s.UpdateDeviceDetailsRequest,
        response: ResponseOf({}),
      },
      async (input, ctx) => {
        await updateDeviceDetails(deps, ctx, cls, input.uuid, flaggedChange(input, s.DEVICE_DETAIL_FIELDS));
        return {};
      },
    );
  details('/api/climate/updateDetails', 'updateClimateSensorDetails', 'Climate', SENSORS.climate);
  details('/api/climate/updateEnvironmentalGatewayDetails', 'updateEnvironmentalGatewayDetails', 'Climate', SENSORS.gateway);
  details('/api/occupancy/updateDetails', 'updateOccupancySensorDetails', 'Occupancy', SENSORS.occupancy);
  details('/api/door/updateDetails', 'updateDoorSensorDetails', 'Door', SENSORS.door);
  details('/api/audiogateway/updateDetails', 'updateAudioGatewayDetails', 'Audio Gateway', SENSORS.audio);
  operation(
    app,
    {
      path: '/api/button/updateDetails',
      operationId: 'updateButtonDetails',
      summary: "Sets a button's details and mode",
      description: 'Every field given is set; the location must be one of the organization, each associated camera a camera of it.',
      tags: ['Button'],
      body: s.UpdateButtonDetailsRequest,
      response: ResponseOf({}),
    },
    async (input, ctx) => (await buttons.updateButtonDetails(deps, ctx, input), {}),
  );
  operation(
    app,
    {
      path: '/api/button/updateConfig',
      operationId: 'updateButtonConfig',
      summary: "Sets a button's test mode and on-site emergency contact",
      description: 'While test mode is on, presses are recorded but fire none of the button rules.',
      tags: ['Button'],
      body: s.UpdateButtonConfigRequest,
      response: ResponseOf({}),
    },
    async (input, ctx) => (await buttons.updateButtonConfig(deps, ctx, input.configUpdate), {}),
  );
  operation(
    app,
    {
      path: '/api/proximity/updateDetails',
      operationId: 'updateProximitySensorDetails',
      summary: 'Sets the flagged details of a proximity tag',
      tags: ['Proximity'],
      body: s.UpdateProximitySensorDetailsRequest,
      response: ResponseOf({}),
    },
    async (input, ctx) => {
      await updateDeviceDetails(deps, ctx, SENSORS.proximity, input.uuid, flaggedChange(input, s.PROXIMITY_DETAIL_FIELDS));
      return {};
    },
  );

  const remove = <K extends string>(path: string, operationId: string, tag: string, idField: K, cls: DeviceClass) =>
    operation(
      app,
      {
        path,
        operationId,
        summary: `Deletes a ${cls.what.toLowerCase()}, and every reference to it`,
        tags: [tag],
        body: s.DeleteDeviceRequest(idField),
        response: s.DeleteDeviceResponse,
      },
      async (input, ctx) => ({ responseStatus: await deleteDevice(deps, ctx, cls, (input as Record<K, string>)[idField]) }),
    );
  remove('/api/camera/delete', 'deleteCamera', 'Camera', 'cameraUuid', CAMERA);
  remove('/api/audiogateway/delete', 'deleteAudioGateway', 'Audio Gateway', 'gatewayUuid', SENSORS.audio);
  remove('/api/climate/deleteEnvironmentalGateway', 'deleteEnvironmentalGateway', 'Climate', 'deviceUuid', SENSORS.gateway);
  remove('/api/doorbellcamera/delete', 'deleteDoorbellCamera', 'Doorbell Camera', 'doorbellCameraUuid', SENSORS.doorbell);

  operation(
    app,
    {
      path: '/api/climate/reboot',
      operationId: 'rebootEnvironmentalGateway',
      summary: 'Reboots an environmental gateway: it goes offline and comes back a few seconds later',
      tags: ['Climate'],
      body: s.RebootEnvironmentalGatewayRequest,
      response: s.RebootDeviceResponse,
    },
    async (input, ctx) => ({ result: await rebootDeviceOfClass(deps, ctx, SENSORS.gateway, input.environmentalGatewayUuid) }),
  );
}
