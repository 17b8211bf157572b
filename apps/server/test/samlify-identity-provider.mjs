// A SAML 2.0 identity provider this project did not write (samlify), for the interoperability tests:
// it reads the service provider's metadata and HTTP-Redirect AuthnRequest and writes and signs the
// answer itself. Plain JavaScript with its types in samlify-identity-provider.d.mts, so samlify's own
// type declarations stay out of the server's TypeScript program: they pull in @xmldom/xmldom 0.8's,
// an ambient module declaration that would merge into the 0.9 types the server parses metadata
// with (its DOMParser options then lose their types).
import { randomUUID } from "node:crypto";
import * as xmllint from "@authenio/samlify-xmllint-wasm";
import { Constants, IdentityProvider, SamlLib, ServiceProvider, setSchemaValidator } from "samlify";
import { generateSamlKeys } from "./saml-messages.mjs";

// samlify parses nothing without a schema validator. Its maintainers' xmllint (libxml2 compiled to
// WebAssembly, no native build) also holds the AuthnRequest the server sends to the SAML 2.0 schemas.
setSchemaValidator(xmllint);

const { binding, format } = Constants.namespace;
const basicName = "urn:oasis:names:tc:SAML:2.0:attrname-format:basic";

export async function createSamlifyIdentityProvider(entityId = `https://idp-${randomUUID().slice(0, 8)}.example.org/samlify`) {
  const keys = await generateSamlKeys("samlify identity provider");
  const origin = new URL(entityId).origin;
  const idp = IdentityProvider({
    entityID: entityId,
    privateKey: keys.privateKey,
    signingCert: keys.certificate,
    nameIDFormat: [format.persistent],
    singleSignOnService: [{ Binding: binding.redirect, Location: `${origin}/sso` }],
    // Never used (single logout is not offered); without one samlify warns when it is built.
    singleLogoutService: [{ Binding: binding.redirect, Location: `${origin}/slo` }],
    // samlify's documented way to send attributes: its default response with an AttributeStatement.
    loginResponseTemplate: {
      context: SamlLib.defaultLoginResponseTemplate.context,
      attributes: [
        { name: "email", valueTag: "email", nameFormat: basicName, valueXsiType: "xs:string" },
        { name: "displayName", valueTag: "displayName", nameFormat: basicName, valueXsiType: "xs:string" },
      ],
    },
  });

  return {
    entityId,
    metadataXml: idp.getMetadata(),

    serviceProvider(metadataXml, { signResponses = false } = {}) {
      return ServiceProvider({ metadata: metadataXml, wantMessageSigned: signResponses });
    },

    async answer(sp, url, user) {
      const query = Object.fromEntries(new URL(url).searchParams);
      const request = await idp.parseLoginRequest(sp, "redirect", { query });
      const requestId = request.extract.request?.id;
      if (typeof requestId !== "string" || !requestId) throw new Error("samlify read no request ID");
      const options = { relayState: query.RelayState };
      if (user.subject !== undefined) options.customTagReplacement = (template) => withAttributes(template, sp, requestId, user);
      const posted = await idp.createLoginResponse(sp, request, "post", { email: user.email }, options);
      return {
        requestId,
        endpoint: posted.entityEndpoint,
        form: { SAMLResponse: posted.context, RelayState: posted.relayState ?? "" },
        xml: Buffer.from(posted.context, "base64").toString("utf8"),
      };
    },
  };

  /** The values samlify fills in itself without a template (binding-post.js), with a subject and attributes. */
  function withAttributes(template, sp, requestId, user) {
    const now = new Date();
    const later = new Date(now.getTime() + 5 * 60_000).toISOString();
    const id = `_${randomUUID()}`;
    const acs = sp.entityMeta.getAssertionConsumerService(binding.post);
    const values = {
      ID: id,
      AssertionID: `_${randomUUID()}`,
      Destination: acs,
      Audience: sp.entityMeta.getEntityID(),
      EntityID: sp.entityMeta.getEntityID(),
      SubjectRecipient: acs,
      Issuer: idp.entityMeta.getEntityID(),
      IssueInstant: now.toISOString(),
      AssertionConsumerServiceURL: acs,
      StatusCode: Constants.StatusCode.Success,
      ConditionsNotBefore: now.toISOString(),
      ConditionsNotOnOrAfter: later,
      SubjectConfirmationDataNotOnOrAfter: later,
      NameIDFormat: format.persistent,
      NameID: user.subject,
      InResponseTo: requestId,
      AuthnStatement: "",
      attrEmail: user.email,
      attrDisplayName: user.displayName ?? "",
    };
    return { id, context: SamlLib.replaceTagsByValue(template, values) };
  }
}
