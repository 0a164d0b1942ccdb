import { Type } from 'typebox';
import { hidden, type ControlPlugin } from '../../edge/control-plugin.js';
import { ResponseOf, Ruuid } from '../../schemas/common.js';
import { SiteFile, type SiteKind } from './schema.js';
import { parseSiteText, seedSite } from './service.js';

/** A site file of 100,000 entries is several megabytes: more than the REST edge's 1 MB limit for a call. */
const SITE_BODY_LIMIT = 64 * 1024 * 1024;
const YAML_TYPES = ['application/yaml', 'application/x-yaml', 'text/yaml'];

/** The created UUIDs by kind and name, as `gatehouse seed` prints them, inside the envelope. */
const CreatedByName = Type.Optional(Type.Record(Type.String(), Type.String()));
const SeedResponse = ResponseOf(
  Object.fromEntries(Object.keys(SiteFile.properties).map((kind) => [kind, CreatedByName])) as Record<SiteKind, typeof CreatedByName>,
);

/** `POST /_gatehouse/orgs/{org}/seed`: a site file as JSON, or as YAML text with a YAML content type. */
export const siteControlRoutes: ControlPlugin = (app, deps) => {
  app.addContentTypeParser(YAML_TYPES, { parseAs: 'string', bodyLimit: SITE_BODY_LIMIT }, (_request, body, done) => {
    try {
      done(null, parseSiteText(String(body), 'yaml'));
    } catch (e) {
      done(e as Error, undefined);
    }
  });
  app.post(
    '/orgs/:org/seed',
    {
      bodyLimit: SITE_BODY_LIMIT,
      // Any body: the site file's own validation names the entry and field that are wrong.
      schema: { ...hidden, params: Type.Object({ org: Ruuid() }), body: Type.Unknown(), response: { 200: SeedResponse } },
    },
    async (request) => ({ error: false, ...(await seedSite(deps, request.params.org, request.body, 'control.site.seed')) }),
  );
};
