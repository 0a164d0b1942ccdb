import { Type } from 'typebox';
import { DeviceRef, EmptyRequest, Field, ResponseOf, Ruuid, StringEnum } from '../../../schemas/common.js';
import { ARCHIVING_SCOPES, UPLOAD_STRATEGIES } from './service.js';
import { NotRef } from '../../../schemas/record-kinds.js';

export const ArchivingConfig = Type.Object({
  orgUuid: Field(NotRef('callerOrg', Ruuid())),
  scope: StringEnum(ARCHIVING_SCOPES),
  targetUuid: Field(NotRef('handler', Ruuid({ description: "the location or device; for ORG, the organization's own uuid (the default)" }))),
  uploadStrategy: StringEnum(UPLOAD_STRATEGIES),
  uploadScheduleUuid: Field(NotRef('handler', Ruuid({ description: 'the schedule of a WEEKLY_SCHEDULED config' }))),
  uploadScheduleInverted: Field(Type.Boolean()),
});

export const GetArchivingConfigsRequest = EmptyRequest;
export const GetArchivingConfigsResponse = ResponseOf({ archivingConfigs: Field(Type.Array(ArchivingConfig)) });
export const UpdateArchivingConfigRequest = Type.Object({ archivingConfig: ArchivingConfig });
export const DeleteArchivingConfigRequest = Type.Object({ scope: StringEnum(ARCHIVING_SCOPES), targetUuid: Field(NotRef('handler', Ruuid())) });
export const ArchivingEnvelope = ResponseOf({});

export const GetCloudArchivingConfigRequest = Type.Object({ deviceUuid: NotRef('subject', DeviceRef()) });
export const GetCloudArchivingConfigResponse = ResponseOf({ archivingConfig: Field(ArchivingConfig) });
export const GetCloudArchivedMediaInfoRequest = Type.Object({ cameraUuid: NotRef('subject', DeviceRef()) });
export const GetCloudArchivedMediaInfoResponse = ResponseOf({ oldestArchivedVideoSegmentSecs: Field(Type.Integer()) });
