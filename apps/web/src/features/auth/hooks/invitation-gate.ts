import { isEmailInvited } from "@/features/auth/api/invitations";
import { activeIntl } from "@/lib/intl";
import { notify } from "@/lib/notify";

/**
 * The first step of sign-in and sign-up: is the address invited? Tells the visitor why not and
 * answers false when it is not, or when the list could not be checked.
 */
export async function passesInvitationGate(email: string): Promise<boolean> {
  let invited: boolean;
  try {
    invited = await isEmailInvited(email);
  } catch (error) {
    console.error("Error checking invitation:", error);
    notify.error(activeIntl().formatMessage({ id: "toast.error" }), activeIntl().formatMessage({ id: "invitation.checkFailed" }));
    return false;
  }
  if (!invited)
    notify.error(
      activeIntl().formatMessage({ id: "invitation.deniedTitle" }),
      activeIntl().formatMessage({ id: "invitation.denied" }),
    );
  return invited;
}

/** Anything the flows did not foresee (a bug, a broken client) ends here rather than in silence. */
export function reportUnexpectedAuthError(error: unknown): void {
  console.error("Unexpected authentication error:", error);
  notify.error(activeIntl().formatMessage({ id: "toast.error" }), activeIntl().formatMessage({ id: "invitation.unexpected" }));
}
