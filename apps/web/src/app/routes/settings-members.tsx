import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { LoadingState } from "@/components/loading-state";
import { useMembers } from "@/features/members/api/members";
import { InviteForm } from "@/features/members/components/invite-form";
import { MemberDirectoryView } from "@/features/members/components/member-directory";
import { useSingleSignOn } from "@/features/auth/api/providers";
import { isSingleSignOnUnavailable, useSingleSignOnOverview } from "@/features/single-sign-on/api/single-sign-on";
import { SingleSignOnSettings } from "@/features/single-sign-on/components/single-sign-on-settings";
import { useAuth } from "@/lib/auth-context";
import { useIntl } from "@/lib/intl";

/**
 * Who is in; an owner also invites, takes invitations back, removes members and names owners here,
 * and registers the household's SAML identity provider when the server has single sign-on on.
 */
export function MembersRoute() {
  const { user } = useAuth();
  const intl = useIntl();
  const members = useMembers();
  const owner = members.data?.your_role === "owner";
  // Known from the auth settings every page reads, so a server with SAML off (most) never shows the card at all.
  const samlOn = useSingleSignOn();
  const singleSignOn = useSingleSignOnOverview({ enabled: owner && samlOn });

  return (
    <>
      <Card>
        <CardHeader>
          <CardTitle>
            <h2 className="text-lg">{intl.formatMessage({ id: "members.title" })}</h2>
          </CardTitle>
          <CardDescription>{intl.formatMessage({ id: "members.description" })}</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-6">
          {owner && <InviteForm />}
          {members.data ? (
            <MemberDirectoryView directory={members.data} yourId={user?.id} />
          ) : members.isError ? (
            <p className="text-sm text-destructive" role="alert">
              {intl.formatMessage({ id: "members.loadFailed" })}
            </p>
          ) : (
            <LoadingState shape="rows">{intl.formatMessage({ id: "members.loading" })}</LoadingState>
          )}
        </CardContent>
      </Card>
      {/* Not an owner, or SAML off on this server: nothing to show, not an error. */}
      {owner && samlOn && !isSingleSignOnUnavailable(singleSignOn.error) && (
        <Card>
          <CardHeader>
            <CardTitle>
              <h2 className="text-lg">{intl.formatMessage({ id: "members.sso.title" })}</h2>
            </CardTitle>
            <CardDescription>{intl.formatMessage({ id: "members.sso.description" })}</CardDescription>
          </CardHeader>
          <CardContent>
            <SingleSignOnSettings />
          </CardContent>
        </Card>
      )}
    </>
  );
}
