import { useSearchParams } from "react-router";

import { OAuthConsent } from "@/features/oauth-consent/components/oauth-consent";

/** `/oauth/consent?authorization_id=…`: where the auth server sends a member to answer an app's request (ADR 0075). */
export function OAuthConsentRoute() {
  const [params] = useSearchParams();
  return <OAuthConsent authorizationId={params.get("authorization_id") ?? ""} />;
}
