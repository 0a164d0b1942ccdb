import { Type } from 'typebox';
import { EmptyRequest, Field, ResponseOf, Ruuid } from '../../../schemas/common.js';
import { RefUuid } from '../../../schemas/record-kinds.js';

export const MAX_PAGE_SIZE = 1000;

export const LandingLabelRequest = Type.Object({
  accessControlledElevatorLandingUuid: RefUuid('device', { notFound: 'Access controlled elevator landing' }),
  label: Type.String({ minLength: 1, maxLength: 100 }),
});
export const LandingLabelResponse = ResponseOf({});

export const GetLandingLabelsForOrgRequest = EmptyRequest;
export const GetLandingLabelsForOrgResponse = ResponseOf({
  accessControlledElevatorLandingLabels: Field(Type.Record(Type.String(), Type.Array(Type.String()), { description: 'landing uuid to its labels' })),
});

const paging = {
  maxPageSize: Field(Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, description: 'default 100' })),
  lastEvaluatedKey: Field(Type.String({ maxLength: 64, description: 'the lastEvaluatedKey of the previous page; absent for the first' })),
};

export const FindLandingShadowsRequest = Type.Object(paging);
export const FindLandingShadowsByLocationRequest = Type.Object({ ...paging, locationUuid: RefUuid('location', { notFound: true }) });

const Shadow = Type.Object({
  componentCompositeUuid: Field(Ruuid()),
  orgUuid: Field(Ruuid()),
  type: Field(Type.String()),
  state: Field(
    Type.Object({
      state: Field(Type.String()),
      source: Field(Type.String()),
      stateUpdateEventTimestampMs: Field(Type.Integer()),
    }),
  ),
  createdAtMillis: Field(Type.Integer()),
  updatedAtMillis: Field(Type.Integer()),
});
export const FindLandingShadowsResponse = ResponseOf({
  shadows: Field(Type.Array(Shadow)),
  lastEvaluatedKey: Field(Type.String({ description: 'present when more shadows may follow: pass it back for the next page' })),
});

export const FindLandingsByLocationResponse = ResponseOf({
  accessControlledElevatorLandings: Field(
    Type.Array(
      Type.Object({
        uuid: Field(Type.String()),
        orgUuid: Field(Type.String()),
        name: Field(Type.String()),
        locationUuid: Field(Type.String()),
        ownerDeviceUuid: Field(Type.String()),
        floorNumber: Field(Type.Integer()),
        type: Field(Type.String()),
        defaultAccessState: Field(Type.String()),
        remoteUnlockEnabled: Field(Type.Boolean()),
        geofenceEnabled: Field(Type.Boolean()),
        associatedCameras: Field(Type.Array(Type.String())),
        createdAtMillis: Field(Type.Integer()),
        updatedAtMillis: Field(Type.Integer()),
      }),
    ),
  ),
  lastEvaluatedKey: Field(Type.String({ description: 'present when more landings may follow: pass it back for the next page' })),
});
