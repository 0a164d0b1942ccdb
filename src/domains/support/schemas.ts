import { Type } from 'typebox';
import { EpochMs, Field, ResponseOf, Ruuid } from '../../schemas/common.js';
import { RefUuid } from '../../schemas/record-kinds.js';

const Str = Type.String({ maxLength: 10_000 });
const Short = Type.String({ maxLength: 500 });

export const SendFeedbackRequest = Type.Object({ feedback: Type.Optional(Str) });
/** What every help operation that sends something to support answers. */
export const SentResponse = ResponseOf({ success: Field(Type.Boolean()), failureReason: Field(Type.String()) });
export const TicketResponse = ResponseOf({ success: Field(Type.Boolean()), failureReason: Field(Type.String()), ticketId: Field(Type.Integer()) });

export const CreateTicketRequest = Type.Object({
  subject: Type.Optional(Short),
  body: Type.Optional(Str),
  productType: Type.Optional(Short),
  serviceType: Type.Optional(Short),
  serialNumbers: Type.Optional(Type.Array(Short, { maxItems: 100 })),
  collaborators: Type.Optional(Type.Array(Short, { maxItems: 20, description: 'e-mail addresses to copy on the ticket' })),
  consoleAccessGranted: Type.Optional(Type.Boolean()),
});

/** The form of ticketWithFile: the ticket's text fields (serialNumbers comma-separated) and one file. */
export const TicketForm = Type.Object(
  {
    file: Type.Optional(
      Type.String({ contentMediaType: 'application/octet-stream', description: 'one PNG, JPEG, PDF, ZIP, gzip, MP4 or plain text file of at most 10 MB' }),
    ),
    subject: Type.Optional(Type.String()),
    body: Type.Optional(Type.String({ description: 'at most 1024 characters in a form' })),
    productType: Type.Optional(Type.String()),
    serviceType: Type.Optional(Type.String()),
    serialNumbers: Type.Optional(Type.String({ description: 'comma-separated' })),
  },
  { description: 'multipart/form-data' },
);

export const ProcessRmaRequest = Type.Object({
  serialNumber: Type.Optional(Short),
  deviceUuid: Type.Optional(RefUuid('device', 'the device to return (Gatehouse; the serial number names it otherwise)')),
  deviceName: Type.Optional(Short),
  problem: Type.Optional(Str),
  contactName: Type.Optional(Short),
  contactPhoneNumber: Type.Optional(Short),
  returnShippingAddress: Type.Optional(
    Type.Object({
      returnAddressStreet: Type.Optional(Short),
      returnAddressCity: Type.Optional(Short),
      returnAddressState: Type.Optional(Short),
      returnAddressPostalCode: Type.Optional(Short),
      returnAddressCountry: Type.Optional(Short),
    }),
  ),
});

const TicketInformation = Type.Object({
  id: Field(Type.Integer()),
  subject: Field(Type.String()),
  status: Field(Type.String()),
  createdAt: Field(Type.String({ format: 'date-time' })),
});

export const OpenTicketsRequest = Type.Object({ pageNumber: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000, default: 1, description: 'from 1' })) });
export const OpenTicketsResponse = ResponseOf({
  tickets: Field(Type.Array(TicketInformation)),
  currentPage: Field(Type.Integer()),
  totalTickets: Field(Type.Integer()),
  hasNexPage: Field(Type.Boolean()),
});
export const OpenTicketsV2Request = Type.Object({ startTimeMs: Type.Optional(EpochMs()), endTimeMs: Type.Optional(EpochMs()) });
export const OpenTicketsV2Response = ResponseOf({ tickets: Field(Type.Array(TicketInformation)), userTickets: Field(Type.Array(TicketInformation)) });

export const TriageDeviceRequest = Type.Object({
  deviceUuid: RefUuid('device'),
  startDateSec: Type.Optional(Type.Integer({ minimum: 0, maximum: 8.64e12, description: 'epoch seconds; default: a day ago' })),
});
const DiagnosticEvent = Type.Object({
  activity: Field(Type.String()),
  deviceUuid: Field(Ruuid()),
  deviceName: Field(Type.String()),
  deviceType: Field(Type.String()),
  firmwareVersion: Field(Type.String()),
  orgUuid: Field(Ruuid()),
  timestamp: Field(Type.String({ format: 'date-time' })),
});
const TimeWindowSeconds = Type.Object({ startSeconds: Field(Type.Integer()), durationSeconds: Field(Type.Integer()) });
export const TriageDeviceResponse = ResponseOf({
  message: Field(Type.String()),
  suggestedArticles: Field(Type.Array(Type.String())),
  uptimeWindows: Field(Type.Array(TimeWindowSeconds)),
  presenceWindows: Field(Type.Array(TimeWindowSeconds)),
  hardwareFailureEvents: Field(Type.Array(DiagnosticEvent)),
  firmwareUpdates: Field(Type.Array(DiagnosticEvent)),
});
