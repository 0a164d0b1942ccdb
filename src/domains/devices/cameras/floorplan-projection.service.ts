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

/** The similarity that moves points to their centroid and scales them to a mean distance of sqrt(2) (Hartley). */
function normaliser(points: readonly Point[]): number[][] {
  const cx = points.reduce((a, p) => a + p[0], 0) / points.length;
  const cy = points.reduce((a, p) => a + p[1], 0) / points.length;
  const mean = points.reduce((a, p) => a + Math.hypot(p[0] - cx, p[1] - cy), 0) / points.length;
  const k = mean > 0 ? Math.SQRT2 / mean : 1;
  return [
    [k, 0, -k * cx],
    [0, k, -k * cy],
    [0, 0, 1],
  ];
}

const multiply = (a: number[][], b: number[][]) => a.map((row) => b[0].map((_, j) => row.reduce((s, v, k) => s + v * b[k][j], 0)));
const apply = (t: number[][], p: Point) => [t[0][0] * p[0] + t[0][2], t[1][1] * p[1] + t[1][2]];

/**
 * The projective transform (3x3, last entry 1) that takes the camera image's points onto the floor plan's,
 * fitted by least squares over every pair (the direct linear transform on Hartley-normalised points, so that
 * the fit does not depend on where or how large the points are).
 */
export function fitHomography(from: readonly Point[], to: readonly Point[]): Homography {
  const [tFrom, tTo] = [normaliser(from), normaliser(to)];
  const rows: number[][] = [];
  const rhs: number[] = [];
  for (const [i, p] of from.entries()) {
    const [x, y] = apply(tFrom, p);
    const [u, v] = apply(tTo, to[i]);
    rows.push([x, y, 1, 0, 0, 0, -u * x, -u * y]);
    rhs.push(u);
    rows.push([0, 0, 0, x, y, 1, -v * x, -v * y]);
    rhs.push(v);
  }
  const ata = Array.from({ length: 8 }, (_, i) => Array.from({ length: 8 }, (_, j) => rows.reduce((s, r) => s + r[i] * r[j], 0)));
  const atb = Array.from({ length: 8 }, (_, i) => rows.reduce((s, r, k) => s + r[i] * rhs[k], 0));
  const h = solve(ata, atb);
  if (!h || h.some((v) => !Number.isFinite(v))) throw fail('INVALID_VALUE', 'the points do not determine a projection: no three of them may lie on one line');
  const k = tTo[0][0];
  const inverseTo = [
    [1 / k, 0, -tTo[0][2] / k],
    [0, 1 / k, -tTo[1][2] / k],
    [0, 0, 1],
  ];
  const m = multiply(
    multiply(inverseTo, [
      [h[0], h[1], h[2]],
      [h[3], h[4], h[5]],
      [h[6], h[7], 1],
    ]),
    tFrom,
  );
  return m.map((row) => row.map((v) => v / m[2][2]));
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
