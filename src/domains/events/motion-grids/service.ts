import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { listCameraBoxes, type FootageBox } from '../../devices/cameras/footage-boxes.service.js';
import { footageDevice } from '../../devices/media-uris/service.js';
import { GRID, MAX_WINDOW_SECS } from './schemas.js';

/**
 * Motion grids from a camera's stored detections (its footage bounding boxes, which the simulator and
 * createFootageBoundingBoxes store): each detection marks the cells of the GRID its box covers, in the second it
 * was seen. A camera with no detections in the window has no motion there.
 */
type ReadDeps = Pick<Deps, 'store'>;
interface Window {
  deviceUuid: string;
  startTimeUtcSecs: number;
  endTimeUtcSecs: number;
}
interface Cell {
  row: number;
  col: number;
}
const PERMYRIAD = 10_000;

/** The cells a box covers (its right and bottom edges are exclusive, so a box ending on a line stops before it). */
export function cellsOf(box: Pick<FootageBox, 'l' | 't' | 'r' | 'b'>): Cell[] {
  const col = (x: number) => Math.min(GRID.cols - 1, Math.floor((x * GRID.cols) / PERMYRIAD));
  const row = (y: number) => Math.min(GRID.rows - 1, Math.floor((y * GRID.rows) / PERMYRIAD));
  const cells: Cell[] = [];
  for (let r = row(box.t); r <= row(Math.max(box.t, box.b - 1)); r++) {
    for (let c = col(box.l); c <= col(Math.max(box.l, box.r - 1)); c++) cells.push({ row: r, col: c });
  }
  return cells;
}

/** The camera's detections in the window, after checking the window and that the camera is the caller's. */
async function detections(deps: ReadDeps, ctx: CallerContext, input: Window): Promise<FootageBox[]> {
  if (input.endTimeUtcSecs <= input.startTimeUtcSecs) throw fail('INVALID_VALUE', 'endTimeUtcSecs must be after startTimeUtcSecs');
  if (input.endTimeUtcSecs - input.startTimeUtcSecs > MAX_WINDOW_SECS) throw fail('INVALID_VALUE', `the window is at most ${MAX_WINDOW_SECS} seconds`);
  const camera = await footageDevice(deps, ctx.orgUuid, input.deviceUuid);
  return listCameraBoxes(deps, camera.uuid, input.startTimeUtcSecs * 1000, input.endTimeUtcSecs * 1000);
}

const secondOf = (box: FootageBox) => Math.floor(box.ts / 1000);
const key = (c: Cell) => c.row * GRID.cols + c.col;

/** The detections by the second they were seen, oldest first. */
function bySecond(boxes: FootageBox[]): Map<number, FootageBox[]> {
  const seconds = new Map<number, FootageBox[]>();
  for (const box of [...boxes].sort((a, b) => a.ts - b.ts)) {
    const list = seconds.get(secondOf(box)) ?? [];
    list.push(box);
    seconds.set(secondOf(box), list);
  }
  return seconds;
}

/**
 * `getMotionGrid`: by second with motion (epoch seconds, as the window), the cells it covered, each once, in grid
 * order: the catalogue's map, which the platform's own examples walk (`for second in motionCells: for cell in
 * motionCells[second]`).
 */
export async function getMotionGrid(deps: ReadDeps, ctx: CallerContext, input: Window): Promise<Record<string, Cell[]>> {
  const grid: Record<string, Cell[]> = {};
  for (const [second, boxes] of bySecond(await detections(deps, ctx, input))) {
    const cells = new Map(boxes.flatMap(cellsOf).map((c) => [key(c), c]));
    grid[String(second)] = [...cells.entries()].sort(([a], [b]) => a - b).map(([, c]) => c);
  }
  return grid;
}

/** `getMotionHeatMap`: per cell, how many detections covered it in the window. */
export async function getMotionHeatMap(deps: ReadDeps, ctx: CallerContext, input: Window): Promise<number[][]> {
  const counts = Array.from({ length: GRID.rows }, () => new Array<number>(GRID.cols).fill(0));
  for (const box of await detections(deps, ctx, input)) for (const c of cellsOf(box)) counts[c.row]![c.col]!++;
  return counts;
}

/** The seconds in which motion covered one of the cells searched, with that second's detections there. */
async function matchingSeconds(deps: ReadDeps, ctx: CallerContext, input: Window & { searchCells: Cell[] }): Promise<Map<number, FootageBox[]>> {
  const wanted = new Set(input.searchCells.map(key));
  const found = new Map<number, FootageBox[]>();
  for (const [second, boxes] of bySecond(await detections(deps, ctx, input))) {
    const hits = boxes.filter((box) => cellsOf(box).some((c) => wanted.has(key(c))));
    if (hits.length > 0) found.set(second, hits);
  }
  return found;
}

/** `searchMotionGrid`: the seconds with motion in any of the cells searched, oldest first. */
export async function searchMotionGrid(deps: ReadDeps, ctx: CallerContext, input: Window & { searchCells: Cell[] }): Promise<number[]> {
  return [...(await matchingSeconds(deps, ctx, input)).keys()];
}

/** `searchMotionGridWithActivities`: those seconds, each with what was seen there and its first instant. */
export async function searchMotionGridWithActivities(deps: ReadDeps, ctx: CallerContext, input: Window & { searchCells: Cell[] }) {
  const map: Record<string, { activities: FootageBox['a'][]; bestTimestampMs: number }> = {};
  for (const [second, hits] of await matchingSeconds(deps, ctx, input)) {
    map[String(second)] = { activities: [...new Set(hits.map((h) => h.a))], bestTimestampMs: hits[0]!.ts };
  }
  return map;
}
