import { KeyRoundIcon } from "lucide-react";

import { Button } from "@/components/ui/button";
import { passkeysSupported, signInWithPasskey, webauthnProblem } from "@/features/auth/api/passkeys";
import { useAuthAction } from "@/features/auth/hooks/use-auth-action";
import { notify, SIGN_IN_FLOW } from "@/lib/notify";
import { activeIntl, useIntl } from "@/lib/intl";

async function signIn(): Promise<void> {
  const { error } = await signInWithPasskey();
  if (error)
    notify.error(activeIntl().formatMessage({ id: "auth.error" }), webauthnProblem(error, "sign in"), { flow: SIGN_IN_FLOW });
  // On success the auth client announces SIGNED_IN, and the auth screen moves the visitor on.
}

/** "Sign in with a passkey": no address or password; the browser offers the member's passkeys for this site. */
export function PasskeySignInButton() {
  const intl = useIntl();
  const { isPending, run } = useAuthAction(signIn);
  if (!passkeysSupported()) return null;
  return (
    <Button type="button" variant="outline" className="w-full" disabled={isPending} onClick={() => run(undefined)}>
      <KeyRoundIcon aria-hidden="true" />
      {isPending ? intl.formatMessage({ id: "auth.passkey.waiting" }) : intl.formatMessage({ id: "auth.passkey.signIn" })}
    </Button>
  );
}
