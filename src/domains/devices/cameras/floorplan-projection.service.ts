import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { toJson } from '../../../store/columns.js';
import { write } from '../../../bus/write.js';
import type { DeviceKind } from '../tables.js';
import { findDevice } from '../service.js';
import * as store from '../store.js';

type Point = readonly number[];
export type Homography = number[][];

/**
 * Solves A x = b by Gaussian elimination with partial pivoting; null when A is singular (the points are
 * degenerate: three of them on a line, or repeated).
 */
function solve(a: number[][], b: number[]): number[] | null {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]]);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(m[r][col]) > Math.abs(m[pivot][col])) pivot = r;
    if (Math.abs(m[pivot][col]) < 1e-9) return null;
    [m[col], m[pivot]] = [m[pivot], m[col]];
    for (let r = 0; r < n; r++) {
      if (r === col) continue;
      const f = m[r][col] / m[col][col];
      for (let c = col; c <= n; c++) m[r][c] -= f * m[col][c];
    }
  }
  return m.map((row, i) => row[n] / row[i]);
}

/**
 * The projective transform (3x3, last entry 1) that takes the camera image's points onto the floor plan's,
 * fitted by least squares over every pair (the direct linear transform). Coordinates are permyriad of each
 * image; they are scaled to 0..1 for the fit, and the answer maps permyriad to permyriad.
 */
export function fitHomography(from: readonly Point[], to: readonly Point[]): Homography {
  const rows: number[][] = [];
  const rhs: number[] = [];
  for (const [i, [x, y]] of from.map((p) => [p[0] / 10000, p[1] / 10000]).entries()) {
    const [u, v] = [to[i][0] / 10000, to[i][1] / 10000];
    rows.push([x, y, 1, 0, 0, 0, -u * x, -u * y]);
    rhs.push(u);
    rows.push([0, 0, 0, x, y, 1, -v * x, -v * y]);
    rhs.push(v);
  }
  const ata = Array.from({ length: 8 }, (_, i) => Array.from({ length: 8 }, (_, j) => rows.reduce((s, r) => s + r[i] * r[j], 0)));
  const atb = Array.from({ length: 8 }, (_, i) => rows.reduce((s, r, k) => s + r[i] * rhs[k], 0));
  const h = solve(ata, atb);
  if (!h || h.some((v) => !Number.isFinite(v))) throw fail('INVALID_VALUE', 'the points do not determine a projection: no three of them may lie on one line');
  // Fitted on 0..1 coordinates; the same matrix maps permyriad to permyriad once its projective row is rescaled.
  return [
    [h[0], h[1], h[2] * 10000],
    [h[3], h[4], h[5] * 10000],
    [h[6] / 10000, h[7] / 10000, 1],
  ];
}

function checkPoints(field: string, points: readonly Point[]): void {
  for (const [i, p] of points.entries()) {
    if (p.length !== 2 || p.some((v) => v < 0 || v > 10000)) throw fail('INVALID_VALUE', `${field}[${i}]: a point is [x, y], each 0 to 10000 (permyriad)`);
  }
}

export interface CalibrationInput {
  deviceUuid: string;
  cameraImagePointsPermyriad: number[][];
  floorplanImagePointsPermyriad: number[][];
}

/**
 * `calibrateFloorplanProjection` (cameras and doorbell cameras): fits the projection from the camera's image onto
 * its location's floor plan, keeps it with the camera (attributes.floorplanProjection) and announces the camera.
 */
export async function calibrateFloorplanProjection(
  deps: Pick<Deps, 'store' | 'bus' | 'clock'>,
  ctx: CallerContext,
  kind: Extract<DeviceKind, 'CAMERA' | 'DOORBELL_CAMERA'>,
  input: CalibrationInput,
): Promise<{ homography: Homography }> {
  const from = input.cameraImagePointsPermyriad;
  const to = input.floorplanImagePointsPermyriad;
  if (from.length !== to.length) throw fail('INVALID_VALUE', 'cameraImagePointsPermyriad and floorplanImagePointsPermyriad must pair up: give as many of each');
  if (from.length < 4) throw fail('INVALID_VALUE', 'cameraImagePointsPermyriad: at least 4 point pairs are needed');
  checkPoints('cameraImagePointsPermyriad', from);
  checkPoints('floorplanImagePointsPermyriad', to);
  const homography = fitHomography(from, to);
  return write(deps, ctx, async (w) => {
    const camera = await findDevice(w, ctx.orgUuid, input.deviceUuid, [kind]);
    if (!camera) throw fail('NOT_FOUND', kind === 'CAMERA' ? 'Camera' : 'Doorbell camera');
    const attributes = { ...camera.attributes, floorplanProjection: { cameraImagePointsPermyriad: from, floorplanImagePointsPermyriad: to, homography } };
    await store.updateDevice(w.tx, ctx.orgUuid, camera.uuid, { attributes: toJson(attributes)!, updated_at_ms: w.nowMs });
    w.change({ entity: kind, entityUuid: camera.uuid, deviceUuid: camera.uuid, type: 'UPDATE', update: { ...camera, attributes, updatedAtMillis: w.nowMs } });
    return { homography };
  });
}
