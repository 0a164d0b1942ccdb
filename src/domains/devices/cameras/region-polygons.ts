/**
 * The plane geometry of a camera's regions of interest. A point is a share of the image: x from the left edge
 * (0) to the right (1), y from the top (0) to the bottom (1), as the catalogue's RegionCoordinateType has them.
 * A region is a simple polygon: at least three corners, no two edges crossing or touching except neighbours at
 * their shared corner, and some area.
 */
export interface Point {
  x: number;
  y: number;
}

/** Twice the signed area of the polygon (shoelace). */
function doubledArea(polygon: readonly Point[]): number {
  let sum = 0;
  for (let i = 0; i < polygon.length; i++) {
    const a = polygon[i]!;
    const b = polygon[(i + 1) % polygon.length]!;
    sum += a.x * b.y - b.x * a.y;
  }
  return sum;
}

/** Which side of the line a→b the point c lies on: positive left, negative right, 0 on it. */
const orientation = (a: Point, b: Point, c: Point) => (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);

/** Whether c, known to be on the line through a and b, lies within the segment's box. */
const withinBox = (a: Point, b: Point, c: Point) =>
  Math.min(a.x, b.x) <= c.x && c.x <= Math.max(a.x, b.x) && Math.min(a.y, b.y) <= c.y && c.y <= Math.max(a.y, b.y);

/** Whether the closed segments a-b and c-d share a point. */
function segmentsMeet(a: Point, b: Point, c: Point, d: Point): boolean {
  const o1 = orientation(a, b, c);
  const o2 = orientation(a, b, d);
  const o3 = orientation(c, d, a);
  const o4 = orientation(c, d, b);
  if (((o1 > 0 && o2 < 0) || (o1 < 0 && o2 > 0)) && ((o3 > 0 && o4 < 0) || (o3 < 0 && o4 > 0))) return true;
  return (o1 === 0 && withinBox(a, b, c)) || (o2 === 0 && withinBox(a, b, d)) || (o3 === 0 && withinBox(c, d, a)) || (o4 === 0 && withinBox(c, d, b));
}

/** Why the corners do not make a simple polygon with some area, or null when they do. */
export function polygonProblem(polygon: readonly Point[]): string | null {
  const n = polygon.length;
  if (n < 3) return 'a polygon needs at least 3 corners';
  for (let i = 0; i < n; i++) {
    const a = polygon[i]!;
    const b = polygon[(i + 1) % n]!;
    if (a.x === b.x && a.y === b.y) return `corners ${i} and ${(i + 1) % n} are the same point`;
  }
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      // Neighbouring edges share a corner: they may meet there and nowhere else, which a fold would break.
      const neighbours = j === i + 1 || (i === 0 && j === n - 1);
      const [a, b, c, d] = [polygon[i]!, polygon[(i + 1) % n]!, polygon[j]!, polygon[(j + 1) % n]!];
      if (neighbours) {
        const [shared, p, q] = j === i + 1 ? [b, a, d] : [a, b, c];
        if (orientation(shared, p, q) === 0 && (q.x - shared.x) * (p.x - shared.x) + (q.y - shared.y) * (p.y - shared.y) > 0) {
          return `edges ${i} and ${j} fold back over each other`;
        }
      } else if (segmentsMeet(a, b, c, d)) {
        return `edges ${i} and ${j} cross`;
      }
    }
  }
  if (doubledArea(polygon) === 0) return 'the polygon has no area';
  return null;
}

/** Whether the point lies inside the polygon or on its boundary (a point on an edge or a corner counts). */
export function containsPoint(polygon: readonly Point[], p: Point): boolean {
  let inside = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const a = polygon[i]!;
    const b = polygon[j]!;
    if (orientation(a, b, p) === 0 && withinBox(a, b, p)) return true;
    // Even-odd rule: count the edges a ray from p to the right crosses (half-open in y, so a corner counts once).
    if (a.y > p.y !== b.y > p.y && p.x < ((b.x - a.x) * (p.y - a.y)) / (b.y - a.y) + a.x) inside = !inside;
  }
  return inside;
}

/** The smallest box holding every polygon given (for a query to leave out points no region can hold). */
export function boundsOf(polygons: ReadonlyArray<readonly Point[]>): { minX: number; maxX: number; minY: number; maxY: number } | null {
  const points = polygons.flat();
  if (points.length === 0) return null;
  return {
    minX: Math.min(...points.map((p) => p.x)),
    maxX: Math.max(...points.map((p) => p.x)),
    minY: Math.min(...points.map((p) => p.y)),
    maxY: Math.max(...points.map((p) => p.y)),
  };
}

/** The image, corner by corner. */
const IMAGE: readonly Point[] = [
  { x: 0, y: 0 },
  { x: 1, y: 0 },
  { x: 1, y: 1 },
  { x: 0, y: 1 },
];

/** The part of a convex polygon where `side` is not negative (one cut of Sutherland-Hodgman). */
function clipConvex(polygon: readonly Point[], side: (p: Point) => number): Point[] {
  const kept: Point[] = [];
  const round = (v: number) => Math.round(v * 1e6) / 1e6;
  polygon.forEach((cur, i) => {
    const next = polygon[(i + 1) % polygon.length]!;
    const [sc, sn] = [side(cur), side(next)];
    if (sc >= 0) kept.push(cur);
    if ((sc < 0 && sn > 0) || (sc > 0 && sn < 0)) {
      const t = sc / (sc - sn);
      kept.push({ x: round(cur.x + t * (next.x - cur.x)), y: round(cur.y + t * (next.y - cur.y)) });
    }
  });
  return kept;
}

/**
 * The two parts of the image a counting line through a and b divides it into: `inside`, which an INGRESS
 * crossing enters, lies below the line (right of a vertical one), as updateCameraLineCrossingThresholds has
 * INGRESS go top to bottom and left to right; `inverted` swaps the parts. The catalogue's cross-counting
 * settings keep the line as these two regions (in_roi, out_roi).
 */
export function lineSides(a: Point, b: Point, inverted: boolean): { inside: Point[]; outside: Point[] } {
  // The normal of the line that points down the image (right, for a vertical line).
  let [nx, ny] = [a.y - b.y, b.x - a.x];
  if (ny < 0 || (ny === 0 && nx < 0)) [nx, ny] = [-nx, -ny];
  const side = (p: Point) => nx * (p.x - a.x) + ny * (p.y - a.y);
  const below = clipConvex(IMAGE, side);
  const above = clipConvex(IMAGE, (p) => -side(p));
  return inverted ? { inside: above, outside: below } : { inside: below, outside: above };
}
