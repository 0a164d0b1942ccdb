import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { deviceOfFacet, facetId, isRuuid } from '../../../ids.js';
import { listDevices, listLocations, type DeviceRecord } from '../service.js';
import { getCameraMediaUris } from './service.js';
import { issueFederatedToken } from '../../../footage/federated-token.js';
import { mediaUrl } from '../../../footage/media-host.js';
import { footagePaths } from '../../../footage/footage-paths.js';
import { distanceM } from '../locations/geo.service.js';

const MEDIA_KINDS = ['CAMERA', 'DOORBELL_CAMERA'] as const;
/** The catalogue's DeviceTypeEnum has no doorbell: a doorbell camera is a camera to media clients. */
const HW_VARIATION = { CAMERA: 'CAMERA_R510', DOORBELL_CAMERA: 'CAMERA_R120' } as const;

/** A time zone as the platform's Java clients read it: its id and its offsets now, in ms. */
function timezoneOf(tz: string, nowMs: number) {
  const offsetMs = (at: number) => {
    const parts = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    }).formatToParts(at);
    const n = (t: string) => Number(parts.find((p) => p.type === t)!.value);
    return Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute'), n('second')) - Math.floor(at / 1000) * 1000;
  };
  const year = new Date(nowMs).getUTCFullYear();
  const jan = offsetMs(Date.UTC(year, 0, 1));
  const jul = offsetMs(Date.UTC(year, 6, 1));
  const rawOffset = Math.min(jan, jul);
  return { id: tz, displayName: tz, rawOffset, dstsavings: Math.max(jan, jul) - rawOffset };
}

/**
 * `getBulkMediaDeviceDetails`: for each camera or doorbell camera named (by uuid or facet id), its name, kind,
 * time zone (its location's), the region of this instance, the audio gateways placed with it, and where its
 * video is on the media host. A device that is not the organization's is unknown, naming the entry.
 */
export async function getBulkMediaDeviceDetails(deps: Pick<Deps, 'store' | 'mediaHost' | 'config' | 'clock'>, ctx: CallerContext, refs: readonly string[]) {
  const devices = new Map((await listDevices(deps, ctx.orgUuid, [...MEDIA_KINDS, 'AUDIO_GATEWAY'])).map((d) => [d.uuid, d]));
  const zones = new Map((await listLocations(deps, ctx.orgUuid)).map((l) => [l.uuid, l.tz]));
  const gatewaysOf = (camera: DeviceRecord) =>
    [...devices.values()]
      .filter(
        (d) =>
          d.deviceType === 'AUDIO_GATEWAY' &&
          Array.isArray(d.attributes.cameras) &&
          (d.attributes.cameras as string[]).some((c) => (deviceOfFacet(c) ?? c) === camera.uuid),
      )
      .map((d) => facetId(d.uuid, 'a0'));
  const detailsOf = async (device: DeviceRecord) => {
    const uris = await getCameraMediaUris(deps, ctx, device.uuid);
    return {
      ...uris,
      deviceFacetUuid: facetId(device.uuid),
      deviceType: 'CAMERA',
      hwVariation: HW_VARIATION[device.deviceType as (typeof MEDIA_KINDS)[number]],
      name: device.name,
      region: deps.config.region as string,
      timezone: timezoneOf((device.locationUuid && zones.get(device.locationUuid)) || 'UTC', deps.clock.now()),
      uri: uris.wanLiveMpdUri,
      audioGateways: gatewaysOf(device),
    };
  };
  const details: Record<string, Awaited<ReturnType<typeof detailsOf>>> = {};
  for (const [i, ref] of refs.entries()) {
    const device = devices.get(isRuuid(ref) ? ref : (deviceOfFacet(ref) ?? ''));
    if (!device || device.deviceType === 'AUDIO_GATEWAY') throw fail('NOT_FOUND', `devices[${i}]: Camera ${ref}`);
    details[ref] = await detailsOf(device);
  }
  return details;
}

/** The widest search getNearbyFeeds takes, in metres. */
export const MAX_FEED_RADIUS_M = 50_000;

/**
 * `rapidsos/getNearbyFeeds`: for an emergency at a point, the live video of the organization's cameras within
 * `width` metres of it (a camera's own coordinates, else its location's), nearest first, as HLS playlists a
 * responder opens without a key: each carries a federated session token (one hour).
 */
export async function nearbyFeeds(
  deps: Pick<Deps, 'store' | 'mediaHost' | 'secrets' | 'clock'>,
  ctx: CallerContext,
  input: { latitude: number; longitude: number; width?: number | null },
): Promise<string[]> {
  const radius = Math.min(input.width ?? 1000, MAX_FEED_RADIUS_M);
  const places = new Map((await listLocations(deps, ctx.orgUuid)).map((l) => [l.uuid, l]));
  const near: Array<{ camera: DeviceRecord; d: number }> = [];
  for (const camera of await listDevices(deps, ctx.orgUuid, [...MEDIA_KINDS])) {
    const a = camera.attributes;
    const at =
      typeof a.latitude === 'number' && typeof a.longitude === 'number'
        ? { latitude: a.latitude, longitude: a.longitude }
        : (() => {
            const l = camera.locationUuid ? places.get(camera.locationUuid) : undefined;
            return l?.latitude != null && l.longitude != null ? { latitude: l.latitude, longitude: l.longitude } : null;
          })();
    if (!at) continue;
    const d = distanceM(input, at);
    if (d <= radius) near.push({ camera, d });
  }
  const token = encodeURIComponent(issueFederatedToken(deps, ctx.orgUuid, 3600));
  return near
    .sort((x, y) => x.d - y.d)
    .map(({ camera }) => `${mediaUrl(deps, footagePaths(camera.uuid).liveM3u8)}?x-auth-scheme=federated-token&x-auth-ft=${token}`);
}
