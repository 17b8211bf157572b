import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { LoadingState } from "@/components/loading-state";
import { useMembers } from "@/features/members/api/members";
import { InviteForm } from "@/features/members/components/invite-form";
import { MemberDirectoryView } from "@/features/members/components/member-directory";
import { useAuth } from "@/lib/auth-context";

/** Who is in; an owner also invites, takes invitations back, removes members and names owners here. */
export function MembersRoute() {
  const { user } = useAuth();
  const members = useMembers();

  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2 className="text-lg">Members</h2>
        </CardTitle>
        <CardDescription>The people who can open this Memory Box and everything in it.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-6">
        {members.data?.your_role === "owner" && <InviteForm />}
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
  );
}
