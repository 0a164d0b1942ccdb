import { facetId } from '../../../ids.js';
import { fromDbBool, fromJson } from '../../../store/columns.js';
import type { SharedLiveVideoStreamRecord, SharedVideoWallRecord } from './schemas.js';
import type { SharedLiveStreamsTable } from '../tables.js';

/**
 * Shared live video streams and shared video walls as the REST API and the stream answer them. A link is a
 * path on the media host: its page (the cameras it shows, with their playlists) and each camera's live HLS
 * playlist (src/footage/live.ts). The password's digest and the token of another link are never in a record.
 */
export const liveSharePath = (token: string) => `/media/live/${token}`;
export const livePlaylistPath = (token: string, cameraUuid: string) => `${liveSharePath(token)}/${cameraUuid}/live.m3u8`;

const expirationTime = (row: SharedLiveStreamsTable) => (row.expires_at_ms === null ? null : Math.floor(row.expires_at_ms / 1000));

export function toLiveStreamRecord(row: SharedLiveStreamsTable): SharedLiveVideoStreamRecord {
  const settings = fromJson<{ audioGatewayUuid?: string | null }>(row.settings) ?? {};
  const device = row.device_uuid ? facetId(row.device_uuid) : null;
  return {
    uuid: row.uuid,
    orgUuid: row.org_uuid,
    cameraUuid: device,
    deviceUuid: device,
    name: row.name,
    streamType: row.stream_type as SharedLiveVideoStreamRecord['streamType'],
    timestampMs: row.created_at_ms,
    expirationTime: expirationTime(row),
    passwordProtected: row.password_digest !== null,
    ssoProtected: false,
    sharedLiveVideoStreamUrl: liveSharePath(row.share_token),
    sharedLiveM3U8StreamUrl: row.device_uuid ? livePlaylistPath(row.share_token, row.device_uuid) : null,
    vodEnabled: fromDbBool(row.vod_enabled) ?? false,
    hideOverlay: false,
    audioGatewayUuid: settings.audioGatewayUuid ?? null,
    audioPushToTalkEnabled: false,
    scheduleUuid: null,
    invertSchedule: false,
    unscheduledMessage: null,
    sharedWithMonitoringService: row.stream_type === 'ALARM_MONITORING',
  };
}

export function toVideoWallShareRecord(row: SharedLiveStreamsTable): SharedVideoWallRecord {
  return {
    uuid: row.uuid,
    orgUuid: row.org_uuid,
    videoWallUuid: row.video_wall_uuid,
    sharedVideoWallUrl: liveSharePath(row.share_token),
    timestampMs: row.created_at_ms,
    expirationTime: expirationTime(row),
    passwordProtected: row.password_digest !== null,
    vodEnabled: fromDbBool(row.vod_enabled) ?? false,
    hideOverlay: false,
    scheduleUuid: null,
    invertSchedule: false,
    unscheduledMessage: null,
    permissionGroupUuid: null,
    deviceScheduleMap: {},
  };
}
