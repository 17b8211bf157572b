import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { LoadingState } from "@/components/loading-state";
import { useMembers } from "@/features/members/api/members";
import { InviteForm } from "@/features/members/components/invite-form";
import { MemberDirectoryView } from "@/features/members/components/member-directory";
import { useSingleSignOn } from "@/features/auth/api/providers";
import { isSingleSignOnUnavailable, useSingleSignOnOverview } from "@/features/single-sign-on/api/single-sign-on";
import { SingleSignOnSettings } from "@/features/single-sign-on/components/single-sign-on-settings";
import { useAuth } from "@/lib/auth-context";

/**
 * Who is in; an owner also invites, takes invitations back, removes members and names owners here,
 * and registers the household's SAML identity provider when the server has single sign-on on.
 */
export function MembersRoute() {
  const { user } = useAuth();
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
            <h2 className="text-lg">Members</h2>
          </CardTitle>
          <CardDescription>The people who can open this Memory Box and everything in it.</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-6">
          {owner && <InviteForm />}
          {members.data ? (
            <MemberDirectoryView directory={members.data} yourId={user?.id} />
          ) : members.isError ? (
            <p className="text-sm text-destructive" role="alert">
              The members could not be loaded. Check your connection and reload the page.
            </p>
          ) : (
            <LoadingState shape="rows">Loading members...</LoadingState>
          )}
        </CardContent>
      </Card>
      {/* Not an owner, or SAML off on this server: nothing to show, not an error. */}
      {owner && samlOn && !isSingleSignOnUnavailable(singleSignOn.error) && (
        <Card>
          <CardHeader>
            <CardTitle>
              <h2 className="text-lg">Single sign-on</h2>
            </CardTitle>
            <CardDescription>Your identity provider (SAML), such as your organisation&apos;s. Owners only.</CardDescription>
          </CardHeader>
          <CardContent>
            <SingleSignOnSettings />
          </CardContent>
        </Card>
      )}
    </>
  );
}
