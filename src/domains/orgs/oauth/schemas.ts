import { Type } from 'typebox';
import { EnvelopeResponse, Field, ResponseOf, Ruuid } from '../../../schemas/common.js';
import { NotRef } from '../../../schemas/record-kinds.js';

const ClientId = Ruuid({ description: "The application's OAuth client id" });

/** An absolute http(s) URI without a fragment (RFC 6749 §3.1.2): where the authorization answers go. */
const RedirectUri = Type.String({ minLength: 1, maxLength: 2048, pattern: '^https?://[^\\s#]+$', description: 'Absolute http(s) redirect URI, no fragment' });

/** The one request shape of submitApplication, updateApplication and deleteApplication (the catalogue's). */
export const OAuthApplicationRequest = Type.Object({
  clientId: Field(NotRef('handler', ClientId)),
  name: Field(Type.String({ maxLength: 200 })),
  contactEmail: Field(Type.String({ maxLength: 320 })),
  redirectUri: Field(RedirectUri),
});

export const SubmitApplicationResponse = ResponseOf({
  clientId: Field(ClientId),
  clientSecret: Field(Type.String({ description: 'The client secret: answered here once, never again' })),
});

/** An application as it is read back: never its secret. */
export const OAuthApplication = Type.Object({
  clientId: Field(ClientId),
  orgUuid: Field(Ruuid()),
  name: Field(Type.String()),
  description: Field(Type.String()),
  contactEmail: Field(Type.String()),
  redirectUri: Field(Type.String()),
});

export const GetApplicationRequest = Type.Object({ clientId: NotRef('subject', ClientId) });
export const GetApplicationResponse = ResponseOf({ application: Field(OAuthApplication) });
export const ListApplicationsRequest = Type.Object({});
export const ListApplicationsResponse = ResponseOf({ oauthApplications: Field(Type.Array(OAuthApplication)) });
export const ApplicationEnvelope = EnvelopeResponse;

/** GET /api/oauth/authorize: the catalogue's parameter names, and RFC 6749's, which OAuth client libraries send. */
export const AuthorizeQuery = Type.Object({
  clientId: Type.Optional(Type.String({ maxLength: 64 })),
  redirectUri: Type.Optional(Type.String({ maxLength: 2048 })),
  responseType: Type.Optional(Type.String({ maxLength: 32 })),
  state: Type.Optional(Type.String({ maxLength: 1024 })),
  consentGiven: Type.Optional(Type.Boolean()),
  codeChallenge: Type.Optional(Type.String({ maxLength: 256 })),
  codeChallengeMethod: Type.Optional(Type.String({ maxLength: 16 })),
  scope: Type.Optional(Type.String({ maxLength: 256 })),
  client_id: Type.Optional(Type.String({ maxLength: 64 })),
  redirect_uri: Type.Optional(Type.String({ maxLength: 2048 })),
  response_type: Type.Optional(Type.String({ maxLength: 32 })),
  code_challenge: Type.Optional(Type.String({ maxLength: 256 })),
  code_challenge_method: Type.Optional(Type.String({ maxLength: 16 })),
});
