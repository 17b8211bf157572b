import { useState } from "react";
import { Link, useLocation, useNavigate } from "react-router";
import { KeyRound } from "lucide-react";

import { CardPage } from "@/components/card-page";
import { PageSpinner } from "@/components/page-spinner";
import { Button } from "@/components/ui/button";
import { paths } from "@/config/paths";
import { SetPasswordForm } from "@/features/auth/components/set-password-form";
import { linkErrorFrom, linkErrorText } from "@/features/auth/utils/link-error";
import { useAuth } from "@/lib/auth-context";
import { notify } from "@/lib/notify";

/**
 * Where a password reset link lands (`/auth/reset`), signed in by the link: a new password, then
 * home. A link that came back refused, or a visit without one, says how to get a new link.
 */
export function SetPasswordRoute() {
  const { status } = useAuth();
  const navigate = useNavigate();
  const { hash } = useLocation();
  const [linkError] = useState(() => linkErrorFrom(hash));

  if (status === "loading") return <PageSpinner />;

  return (
    <CardPage
      icon={KeyRound}
      title="Set a new password"
      description={
        status === "signedIn" ? "Choose the password you'll sign in with from now on." : "This page needs a password reset link."
      }
    >
      {status === "signedIn" ? (
        <SetPasswordForm
          onDone={() => {
            notify.success("Password updated", "You're signed in with your new password.");
            void navigate(paths.home, { replace: true });
          }}
        />
      ) : (
        <>
          <p className="text-sm">
            {linkError ? linkErrorText(linkError) : "Open the link from your password reset email, or ask for a new one."}
          </p>
          <Button asChild>
            <Link to={paths.forgotPassword}>Send a new reset link</Link>
          </Button>
        </>
      )}
    </CardPage>
  );
}
