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
import { useIntl } from "@/lib/intl";
import { notify } from "@/lib/notify";

/**
 * Where a password reset link lands (`/auth/reset`), signed in by the link: a new password, then
 * home. A link that came back refused, or a visit without one, says how to get a new link; so
 * does a refused link opened where the member was already signed in, whose form would look as if
 * the spent link had worked.
 */
export function SetPasswordRoute() {
  const { status } = useAuth();
  const intl = useIntl();
  const navigate = useNavigate();
  const { hash } = useLocation();
  const [linkError] = useState(() => linkErrorFrom(hash));

  if (status === "loading") return <PageSpinner />;
  const signedInByLink = status === "signedIn" && linkError === undefined;

  return (
    <CardPage
      icon={KeyRound}
      title={intl.formatMessage({ id: "setPassword.title" })}
      description={
        signedInByLink
          ? intl.formatMessage({ id: "setPassword.description" })
          : intl.formatMessage({ id: "setPassword.needsLink" })
      }
    >
      {signedInByLink ? (
        <SetPasswordForm
          onDone={() => {
            notify.success(
              intl.formatMessage({ id: "setPassword.updated" }),
              intl.formatMessage({ id: "setPassword.updatedDetail" }),
            );
            void navigate(paths.home, { replace: true });
          }}
        />
      ) : (
        <>
          <p className="text-sm">{linkError ? linkErrorText(linkError) : intl.formatMessage({ id: "setPassword.openLink" })}</p>
          <Button asChild>
            <Link to={paths.forgotPassword}>{intl.formatMessage({ id: "setPassword.newLink" })}</Link>
          </Button>
        </>
      )}
    </CardPage>
  );
}
