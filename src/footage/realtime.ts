import { avcConfiguration, fragmentSamples } from './fmp4.js';

/**
 * Live video as the platform's web SDK plays it in its realtime player (client-calls.md M16): H.264 over a
 * WebSocket, decoded frame by frame (WebCodecs), without a container. The pictures are the DASH footage's own
 * segments (src/footage/segments.ts), their samples taken out of the fMP4 and sent one frame a message.
 *
 * A binary message is a run of blocks, each a type byte and a 3-byte big-endian length, then the value:
 * - 0x02: the time (epoch ms, 8 bytes big-endian) of the frames that follow;
 * - 0x00: a key frame, 0x01: any other frame: one access unit in Annex B form (4-byte start codes). A key frame
 *   starts with its SPS and PPS, which is how the player tells a key frame (the NAL type after the first start
 *   code is 7) and where its decoder is configured from.
 * A text message is a JSON command; on opening the socket says `{"action":"init","width":..,"height":..,"framerate":..}`.
 */
export const REALTIME_BLOCK = { keyFrame: 0x00, frame: 0x01, timestamp: 0x02 } as const;

export interface AccessUnit {
  data: Buffer;
  key: boolean;
}

const START_CODE = Buffer.from([0, 0, 0, 1]);
const NAL = { idr: 5, sps: 7, pps: 8, delimiter: 9 } as const;
const nalType = (unit: Buffer) => unit[0]! & 0x1f;

/** A segment's frames (its initialization and media parts, as src/footage/segments.ts encodes them) as Annex B access units. */
export function annexBAccessUnits(init: Buffer, media: Buffer): AccessUnit[] {
  const { sps, pps, lengthSize } = avcConfiguration(init);
  return fragmentSamples(media).map((sample) => {
    const units: Buffer[] = [];
    for (let at = 0; at + lengthSize <= sample.length;) {
      const size = sample.readUIntBE(at, lengthSize);
      at += lengthSize;
      units.push(sample.subarray(at, at + size));
      at += size;
    }
    const key = units.some((unit) => nalType(unit) === NAL.idr);
    // The parameter sets lead every key frame (from the avcC); any repeated in the sample, and delimiters, are dropped.
    const pictures = units.filter((unit) => ![NAL.sps, NAL.pps, NAL.delimiter].includes(nalType(unit) as 7 | 8 | 9));
    return { key, data: Buffer.concat((key ? [...sps, ...pps, ...pictures] : pictures).flatMap((unit) => [START_CODE, unit])) };
  });
}

/** One binary message: the frame's time, then the frame. */
export function realtimeMessage(timestampMs: number, unit: AccessUnit): Buffer {
  const out = Buffer.alloc(4 + 8 + 4 + unit.data.length);
  out[0] = REALTIME_BLOCK.timestamp;
  out.writeUIntBE(8, 1, 3);
  out.writeBigUInt64BE(BigInt(timestampMs), 4);
  out[12] = unit.key ? REALTIME_BLOCK.keyFrame : REALTIME_BLOCK.frame;
  out.writeUIntBE(unit.data.length, 13, 3);
  unit.data.copy(out, 16);
  return out;
}

/**
 * Live audio as the SDK's audio player reads it (M18): blocks as the video's, 0x01 the time (epoch ms, 8 bytes) of
 * the first frame that follows, then 20 ms Opus frames, each its own block (0x02: near audio; the SDK takes any
 * type but 0x00 and 0x01 for a frame, and 0x80 set for the far end's audio).
 */
export const REALTIME_AUDIO_BLOCK = { timestamp: 0x01, opus: 0x02 } as const;

export function realtimeAudioMessage(timestampMs: number, frames: readonly Buffer[]): Buffer {
  const block = (type: number, value: Buffer) => {
    const head = Buffer.alloc(4);
    head[0] = type;
    head.writeUIntBE(value.length, 1, 3);
    return [head, value];
  };
  const time = Buffer.alloc(8);
  time.writeBigUInt64BE(BigInt(timestampMs));
  return Buffer.concat([...block(REALTIME_AUDIO_BLOCK.timestamp, time), ...frames.flatMap((frame) => block(REALTIME_AUDIO_BLOCK.opus, frame))]);
}
