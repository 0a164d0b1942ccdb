import { Type } from 'typebox';
import { EpochMs, Field, Nullable, ResponseOf } from '../../schemas/common.js';

/** A Gatehouse extension (not in the platform's catalogue): the change log after a position, for clients that poll. */
export const ListChangesAfterRequest = Type.Object(
  {
    afterPosition: Type.Integer({ minimum: 0, description: "the last position the client has seen (0: from the log's start)" }),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, description: 'at most this many changes (default 1000)' })),
  },
  { additionalProperties: false },
);

/** One change as the stream's MESSAGE carries it, with its position. */
const Change = Type.Object({
  position: Type.Integer({ description: "the organization's change position" }),
  entity: Type.String(),
  entityUuid: Type.String(),
  type: Type.String({ description: 'CREATE, UPDATE or DELETE' }),
  deviceUuid: Nullable(Type.String()),
  timestampMs: EpochMs(),
  update: Type.Unknown({ description: 'the record as the REST API returns it' }),
});

export const ListChangesAfterResponse = ResponseOf({
  changes: Field(Type.Array(Change)),
  lastPosition: Field(Type.Integer({ description: 'the position to ask after next' })),
  latestPosition: Field(Type.Integer({ description: "the organization's newest position: more changes wait while it is past lastPosition" })),
});
