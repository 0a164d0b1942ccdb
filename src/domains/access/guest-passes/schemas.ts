import { Type, type TSchema } from 'typebox';
import { EpochMs, Field, Nullable, ResponseOf, Ruuid, StringEnum } from '../../../schemas/common.js';
import { GUEST_PASS_LIFECYCLES } from './model.js';
import { GUEST_PASS_PAGE } from './service.js';
import { NotRef, RefUuid } from '../../../schemas/record-kinds.js';

/** A request field that may be left out or sent as null. */
const Opt = <T extends TSchema>(schema: T) => Type.Optional(Nullable(schema));

export const GuestPass = Type.Object(
  {
    uuid: Field(Ruuid()),
    orgUuid: Field(Ruuid()),
    locationUuid: Field(Ruuid()),
    doorUuids: Field(Type.Array(Ruuid())),
    lifecycle: Field(StringEnum(GUEST_PASS_LIFECYCLES)),
    note: Field(Type.String()),
    principalType: Field(Type.String()),
    guestEmail: Field(Type.String()),
    passStartTimeMs: Field(EpochMs('inclusive')),
    passEndTimeMs: Field(EpochMs('exclusive')),
    credentialValueHint: Field(Type.String({ description: "the value's last four characters; the value is answered only at creation" })),
    createdAtMillis: Field(EpochMs()),
    updatedAtMillis: Field(EpochMs()),
  },
  { description: 'A guest pass: a time-limited credential at the doors it names' },
);

export const CreateGuestPassRequest = Type.Object({
  guestPass: Type.Object({
    locationUuid: RefUuid('location', { notFound: true }),
    doorUuids: Type.Array(RefUuid('door', { notFound: 'Door {id}' }), { minItems: 1, maxItems: 100 }),
    passStartTimeMs: EpochMs('inclusive'),
    passEndTimeMs: EpochMs('exclusive'),
    note: Opt(Type.String({ maxLength: 1000 })),
    guestEmail: Opt(Type.String({ maxLength: 320, description: 'a guest of the organization (guest management)' })),
  }),
  credentialValue: Opt(Type.String({ pattern: '^[0-9A-Fa-f]{8,64}$', description: 'hex digits the reader will read (default: 16 random ones)' })),
});
export const CreateGuestPassResponse = ResponseOf({
  guestPass: Field(GuestPass),
  credentialValue: Field(Type.String({ description: "the pass's value: answered this once" })),
});
export const FindGuestPassesRequest = Type.Object({
  startAfterMs: Opt(EpochMs('passes starting after (exclusive)')),
  startBeforeMs: Opt(EpochMs('passes starting before (exclusive)')),
  maxPageSize: Opt(Type.Integer({ minimum: 1, maximum: GUEST_PASS_PAGE.max, description: `default ${GUEST_PASS_PAGE.default}` })),
  lastEvaluatedKey: Opt(Type.String({ maxLength: 512 })),
});
export const FindGuestPassesResponse = ResponseOf({ guestPasses: Field(Type.Array(GuestPass)), lastEvaluatedKey: Field(Type.String()) });
export const GuestPassUuidRequest = Type.Object({ guestPassUuid: NotRef('handler', Ruuid()) });
export const GuestPassResponse = ResponseOf({ guestPass: Field(GuestPass) });
export const DeleteGuestPassResponse = ResponseOf({});
