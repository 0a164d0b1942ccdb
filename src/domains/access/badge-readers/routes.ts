import type { Deps } from '../../../deps.js';
import { operation, type ApiApp } from '../../../edge/operation.js';
import { Field, ResponseOf, Ruuid } from '../../../schemas/common.js';
import { Type } from 'typebox';
import { DeleteDeviceRequest, DeleteDeviceResponse, RebootDeviceResponse } from '../../devices/lifecycle/schemas.js';
import { deleteDevice, rebootDeviceOfClass } from '../../devices/lifecycle/service.js';
import { listDevices } from '../../devices/service.js';
import type { DeviceClass } from '../../devices/device-reads/device-events.service.js';
import { NotRef } from '../../../schemas/record-kinds.js';

const Status = Type.String({ description: 'GREEN, YELLOW or RED' });
const MinimalBadgeReaderState = Type.Object({
  uuid: Field(Ruuid()),
  name: Field(Type.String()),
  locationUuid: Field(Ruuid()),
  connectionStatus: Field(Status),
  healthStatus: Field(Status),
  firmwareVersion: Field(Type.String()),
  serialNumber: Field(Type.String()),
  doorControllerUuid: Field(Ruuid({ description: 'the door controller it is wired to, when it is' })),
});

const BADGE_READER: DeviceClass = { kinds: ['BADGE_READER'], what: 'Badge reader' };

/** Badge readers: deleted and rebooted through the devices domain's one delete and one reboot (issue 19). */
export function badgeReaderRoutes(app: ApiApp, deps: Deps): void {
  const tags = ['Badge Reader'];
  operation(
    app,
    {
      path: '/api/badgereader/getMinimalStateList',
      operationId: 'getMinimalBadgeReaderStateList',
      summary: 'Basic state of every badge reader of the organization',
      tags,
      body: Type.Object({}),
      response: ResponseOf({ minimalStates: Field(Type.Array(MinimalBadgeReaderState)) }),
      platformSource: 'newer',
    },
    async (_input, ctx) => ({
      minimalStates: (await listDevices(deps, ctx.orgUuid, ['BADGE_READER'])).map((reader) => ({
        uuid: reader.uuid,
        name: reader.name,
        locationUuid: reader.locationUuid,
        connectionStatus: reader.connectionStatus,
        healthStatus: reader.healthStatus,
        firmwareVersion: reader.firmwareVersion ?? '',
        serialNumber: reader.serialNumber ?? '',
        doorControllerUuid: typeof reader.attributes.doorControllerUuid === 'string' ? reader.attributes.doorControllerUuid : null,
      })),
    }),
  );
  operation(
    app,
    {
      path: '/api/badgereader/delete',
      operationId: 'deleteBadgeReader',
      summary: 'Deletes a badge reader, and every reference to it',
      tags,
      body: DeleteDeviceRequest('badgeReaderUuid'),
      response: DeleteDeviceResponse,
    },
    async (input, ctx) => ({ responseStatus: await deleteDevice(deps, ctx, BADGE_READER, input.badgeReaderUuid) }),
  );
  operation(
    app,
    {
      path: '/api/badgereader/reboot',
      operationId: 'rebootBadgeReader',
      summary: 'Reboots a badge reader: it goes offline and comes back a few seconds later',
      tags,
      body: Type.Object({ badgeReaderUuid: NotRef('handler', Ruuid()) }),
      response: RebootDeviceResponse,
    },
    async (input, ctx) => ({ result: await rebootDeviceOfClass(deps, ctx, BADGE_READER, input.badgeReaderUuid) }),
  );
}
