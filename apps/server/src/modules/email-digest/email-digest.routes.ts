import { ApiError, EmailDigestPreferences, EmailUnsubscribed } from "@memory-box/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { memberOf, requireMembers, type MemberAuthenticator } from "../member-door";
import type { EmailDigestService } from "./email-digest.service";

export interface EmailDigestRoutesOptions {
  service: EmailDigestService;
  authenticate: MemberAuthenticator;
}

/**
 * `/api/v1/notifications/email`: the member's e-mail digest (ADR 0060), and its one-click
 * unsubscribe URL, which answers without a session (RFC 8058).
 */
export const emailDigestRoutes: FastifyPluginAsyncZod<EmailDigestRoutesOptions> = async (app, options) => {
  await app.register(preferencesRoutes, options);
  await app.register(unsubscribeRoutes, options);
};

const preferencesRoutes: FastifyPluginAsyncZod<EmailDigestRoutesOptions> = async (app, { service, authenticate }) => {
  requireMembers(app, authenticate);

  app.get(
    "/api/v1/notifications/email",
    {
      schema: {
        tags: ["notifications"],
        summary: "The caller's e-mail digest",
        description: 'A member who never chose one has `{ "digest": "off", "time_zone": "UTC" }`.',
        response: { 200: EmailDigestPreferences, 401: ApiError },
      },
    },
    async (request) => service.preferences(memberOf(request).user.id),
  );

  app.put(
    "/api/v1/notifications/email",
    {
      schema: {
        tags: ["notifications"],
        summary: "Choose the e-mail digest",
        description:
          "Daily digests leave at 08:00 in `time_zone`, weekly ones on Monday at 08:00, only when a partner added memories. " +
          "Switching it on starts from now: the first digest covers what is added from then on.",
        body: EmailDigestPreferences,
        response: { 200: EmailDigestPreferences, 400: ApiError, 401: ApiError },
      },
    },
    async (request) => service.setPreferences(memberOf(request).user.id, request.body),
  );
};

/** A one-click post is one short field; anything larger is not one. */
const maxFormBytes = 4 * 1024;
const TokenQuery = z.object({ token: z.string().min(1).max(200) });

const unsubscribeRoutes: FastifyPluginAsyncZod<EmailDigestRoutesOptions> = async (app, { service }) => {
  // RFC 8058: the mail receiver posts `List-Unsubscribe=One-Click` as multipart/form-data or
  // urlencoded. Only this plugin's routes take form bodies; every other route still refuses them
  // (415), so a form on another site cannot post to the rest of the API.
  app.addContentTypeParser(
    ["application/x-www-form-urlencoded", "multipart/form-data"],
    { parseAs: "buffer", bodyLimit: maxFormBytes },
    (request, body, done) => {
      // The platform's own form parser (undici's), both encodings; a malformed body is a bad request.
      new Response(new Uint8Array(body as Buffer), { headers: { "content-type": request.headers["content-type"] ?? "" } })
        .formData()
        .then(
          (form) => done(null, Object.fromEntries([...form].filter((entry) => typeof entry[1] === "string"))),
          () => done(null, {}),
        );
    },
  );

  app.post(
    "/api/v1/notifications/email/unsubscribe",
    {
      schema: {
        tags: ["notifications"],
        summary: "One-click unsubscribe (RFC 8058)",
        description:
          "The digest's List-Unsubscribe URL, posted by the mail program (or the /unsubscribe page) with the form body " +
          "`List-Unsubscribe=One-Click` and no session. Turns the digest of the member the token names off.",
        querystring: TokenQuery,
        body: z.object({ "List-Unsubscribe": z.literal("One-Click") }),
        response: { 200: EmailUnsubscribed, 400: ApiError },
      },
    },
    async (request) => service.unsubscribe(request.query.token),
  );

  // Mail scanners and link previews follow links: a GET never unsubscribes, it sends the browser to
  // the page where the member confirms.
  app.get(
    "/api/v1/notifications/email/unsubscribe",
    {
      schema: {
        tags: ["notifications"],
        summary: "Open the unsubscribe page",
        description:
          "303 to the web app's `/unsubscribe?token=…`, which posts the one-click unsubscribe once the member confirms.",
        querystring: TokenQuery,
        response: { 303: z.null(), 400: ApiError },
      },
    },
    async (request, reply) => reply.redirect(service.unsubscribePageUrl(request.query.token), 303),
  );
};
