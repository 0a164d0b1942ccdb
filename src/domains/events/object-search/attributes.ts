import { createHash } from 'node:crypto';
import type { FootageBox } from '../../devices/cameras/footage-boxes.service.js';

/**
 * The stand-in for the platform's object models (docs/client-fidelity.md): a detection's attributes are read from
 * what its box stores (its activity, its recognized objects `ro` and vehicle name `vn`), and its embedding is a
 * hashed bag of those attributes, so that detections alike in kind, colour and words are near. A text query is
 * parsed to the same attributes and embedded the same way. Everything is deterministic; no model is loaded.
 */

/** The catalogue's ColorEnum: the colours an object search names. */
export const OBJECT_COLORS = ['BLACK', 'BLUE', 'BROWN', 'GRAYWHITE', 'GREEN', 'ORANGE', 'PINK', 'PURPLE', 'RED', 'YELLOW', 'UNKNOWN'] as const;
export type ObjectColor = (typeof OBJECT_COLORS)[number];

/** The kinds of object the embedding searches find (their objectTypeFilter). */
export const OBJECT_TYPES = ['MOTION_HUMAN', 'MOTION_CAR'] as const;
export type ObjectType = (typeof OBJECT_TYPES)[number];

/** The catalogue's ObjectSearchModelEnum. */
export const SEARCH_MODELS = ['CLIP_512', 'UNKNOWN', 'REIDENTIFICATION_NET', 'PERSON_VIT'] as const;
export type SearchModel = (typeof SEARCH_MODELS)[number];

/** The length of each model's vectors. */
export const MODEL_DIMENSIONS: Record<SearchModel, number> = { CLIP_512: 512, UNKNOWN: 512, REIDENTIFICATION_NET: 256, PERSON_VIT: 384 };

/** Words of a colour, by the colour they name. */
const COLOR_WORDS: Record<string, Exclude<ObjectColor, 'UNKNOWN'>> = {
  black: 'BLACK',
  blue: 'BLUE',
  navy: 'BLUE',
  brown: 'BROWN',
  tan: 'BROWN',
  beige: 'BROWN',
  gray: 'GRAYWHITE',
  grey: 'GRAYWHITE',
  white: 'GRAYWHITE',
  silver: 'GRAYWHITE',
  green: 'GREEN',
  orange: 'ORANGE',
  pink: 'PINK',
  purple: 'PURPLE',
  violet: 'PURPLE',
  red: 'RED',
  maroon: 'RED',
  yellow: 'YELLOW',
  gold: 'YELLOW',
};

/** Words of an object's kind (the word itself is kept as an attribute too: a sedan is a car, and a sedan). */
const OBJECT_WORDS: Record<string, ObjectType> = Object.fromEntries([
  ...['person', 'people', 'human', 'man', 'men', 'woman', 'women', 'pedestrian', 'child', 'kid', 'boy', 'girl'].map((w) => [w, 'MOTION_HUMAN']),
  ...['car', 'cars', 'vehicle', 'vehicles', 'sedan', 'truck', 'suv', 'van', 'pickup', 'bus', 'motorcycle', 'coupe'].map((w) => [w, 'MOTION_CAR']),
]) as Record<string, ObjectType>;

/** Words that say nothing of an object. */
const STOP_WORDS = new Set(['a', 'an', 'the', 'in', 'on', 'with', 'of', 'and', 'or', 'wearing', 'who', 'is', 'at', 'near', 'by', 'to', 'some', 'any']);

/** What a detection or a query is: its kind, its colours and its other words. */
export interface Attributes {
  objectType: ObjectType | null;
  colors: Exclude<ObjectColor, 'UNKNOWN'>[];
  words: string[];
}

/** The kind of object an activity sees, or null when it sees no object the searches find. */
export function objectTypeOf(activity: string): ObjectType | null {
  if (activity === 'MOTION_HUMAN' || /^(FACE|POSE|HUMAN_)/.test(activity)) return 'MOTION_HUMAN';
  if (activity === 'MOTION_CAR' || /^(LICENSEPLATE|CAR_)/.test(activity)) return 'MOTION_CAR';
  return null;
}

const tokens = (text: string) => text.toLowerCase().match(/[a-z0-9]+/g) ?? [];

/** Reads words into attributes: colours and kinds are recognized, other words kept (stop words dropped). */
function readWords(words: readonly string[], objectType: ObjectType | null): Attributes {
  const colors = new Set<Exclude<ObjectColor, 'UNKNOWN'>>();
  const rest = new Set<string>();
  let kind = objectType;
  for (const word of words) {
    if (STOP_WORDS.has(word)) continue;
    const color = COLOR_WORDS[word];
    if (color) colors.add(color);
    else {
      kind ??= OBJECT_WORDS[word] ?? null;
      rest.add(word);
    }
  }
  return { objectType: kind, colors: [...colors].sort(), words: [...rest].sort() };
}

/** A detection's attributes, from its stored box. */
export function attributesOf(box: FootageBox): Attributes {
  return readWords([...(box.ro ?? []).flatMap((w) => tokens(w ?? '')), ...tokens(box.vn ?? '')], objectTypeOf(box.a));
}

/** A text query's attributes ("red sedan", "person in yellow shirt"). */
export function parseSearchText(text: string): Attributes {
  return readWords(tokens(text), null);
}

/** A detection's colour for the colour search: its first colour, or UNKNOWN when its attributes name none. */
export const colorsOf = (attributes: Attributes): ObjectColor[] => (attributes.colors.length > 0 ? attributes.colors : ['UNKNOWN']);

/** The weighted features of attributes: the kind counts most, then each colour, then each word. */
function features(attributes: Attributes): Array<[string, number]> {
  return [
    ...(attributes.objectType ? [[`kind:${attributes.objectType}`, 2] as [string, number]] : []),
    ...attributes.colors.map((c): [string, number] => [`color:${c}`, 1.5]),
    ...attributes.words.map((w): [string, number] => [`word:${w}`, 1]),
  ];
}

/** Each feature lands on this many slots of the vector, with a sign each, so that collisions rarely matter. */
const SLOTS_PER_FEATURE = 4;

/** The unit vector of the attributes (feature hashing; an empty set of attributes is the zero vector). */
export function embed(attributes: Attributes, dimensions: number): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  for (const [feature, weight] of features(attributes)) {
    const digest = createHash('sha256').update(feature).digest();
    for (let i = 0; i < SLOTS_PER_FEATURE; i++) {
      const slot = digest.readUInt32BE(i * 4) % dimensions;
      vector[slot]! += (digest[16 + i]! & 1 ? 1 : -1) * weight;
    }
  }
  const norm = Math.hypot(...vector);
  return norm === 0 ? vector : vector.map((v) => Math.round((v / norm) * 1e6) / 1e6);
}

/** Cosine distance of two vectors of one length: 0 alike, 1 unrelated, 2 opposite (a zero vector is 1 from all). */
export function cosineDistance(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  if (na === 0 || nb === 0) return 1;
  return Math.round((1 - dot / Math.sqrt(na * nb)) * 1e6) / 1e6;
}

type Point = readonly [number, number];

function inside(p: Point, polygon: readonly Point[]): boolean {
  let odd = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const [xi, yi] = polygon[i]!;
    const [xj, yj] = polygon[j]!;
    if (yi > p[1] !== yj > p[1] && p[0] < ((xj - xi) * (p[1] - yi)) / (yj - yi) + xi) odd = !odd;
  }
  return odd;
}

function crosses(a: Point, b: Point, c: Point, d: Point): boolean {
  const side = (p: Point, q: Point, r: Point) => Math.sign((q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0]));
  return side(a, b, c) * side(a, b, d) < 0 && side(c, d, a) * side(c, d, b) < 0;
}

/** Whether a box overlaps a polygon (permyriad points): a corner inside the other, or two edges crossing. */
export function boxOverlaps(box: Pick<FootageBox, 'l' | 't' | 'r' | 'b'>, polygon: readonly Point[]): boolean {
  const corners: Point[] = [
    [box.l, box.t],
    [box.r, box.t],
    [box.r, box.b],
    [box.l, box.b],
  ];
  if (corners.some((c) => inside(c, polygon))) return true;
  if (polygon.some(([x, y]) => x >= box.l && x <= box.r && y >= box.t && y <= box.b)) return true;
  for (let i = 0; i + 1 < polygon.length; i++) {
    for (let k = 0; k < 4; k++) if (crosses(polygon[i]!, polygon[i + 1]!, corners[k]!, corners[(k + 1) % 4]!)) return true;
  }
  return false;
}
