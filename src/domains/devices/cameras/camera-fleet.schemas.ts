import { Type } from 'typebox';
import { EmptyRequest, Field, ResponseOf, StringEnum } from '../../../schemas/common.js';
import { CameraDetails, UptimeWindows } from './camera-details.schemas.js';
import { FacetedUserConfig } from './faceted-config.schemas.js';
import { RefUuid } from '../../../schemas/record-kinds.js';

/**
 * Reads over every camera of the organization (issue 19): those counting occupancy, those counting line crossings
 * at a location, and everyone's uptime. The platform's MCP server calls them; none is in the catalogue, the first
 * two answer the catalogue's shapes, the uptime answers the newer public client's.
 */
export const GetOccupancyEnabledCamerasRequest = EmptyRequest;
/** The catalogue's faceted camera: a camera's details and the facet id of its video. */
const FacetedCamera = Type.Object({ ...CameraDetails.properties, deviceUuid: Field(Type.String()) });
export const GetOccupancyEnabledCamerasResponse = ResponseOf({ cameras: Field(Type.Array(FacetedCamera)) });

export const GetLineCrossingEnabledCamerasForLocationRequest = Type.Object({ locationUuid: RefUuid('location', { notFound: true }) });
export const GetLineCrossingEnabledCamerasForLocationResponse = ResponseOf({
  camerasToConfigs: Field(Type.Record(Type.String(), FacetedUserConfig, { description: 'camera uuid -> its faceted settings' })),
});

export const UPTIME_SOURCES = ['HARDWARE', 'MEDIA_PRESENCE', 'UNAVAILABLE'] as const;
const Since = Type.Integer({ minimum: 0, description: 'epoch milliseconds' });
export const GetUptimeWindowsForOrgRequest = Type.Object({ startTimeMs: Since, endTimeMs: Since });
export const GetUptimeWindowsForOrgResponse = ResponseOf({
  uptimeByDevice: Field(
    Type.Array(
      Type.Object({
        deviceUuid: Field(Type.String()),
        uptimeWindows: Field(UptimeWindows),
        uptimeSource: Field(StringEnum(UPTIME_SOURCES, 'HARDWARE: from the device connection history')),
      }),
    ),
  ),
});
