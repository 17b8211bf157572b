import { useId, useState, type FormEvent } from "react";
import type { InvitationSent } from "@memory-box/contract";
import { CheckIcon, CopyIcon } from "lucide-react";

import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { FieldProblem } from "@/components/field-problem";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { useInvite } from "@/features/members/api/members";
import { ApiError } from "@/lib/api-client";
import { notify } from "@/lib/notify";
import { useIntl } from "@/lib/intl";

/**
 * An owner invites an address. The server e-mails a link to the sign-up form; without a mail
 * server the link is shown here to pass on by hand. A refusal (a member's address, not an
 * address) is said under the field, and the address stays for correcting.
 */
export function InviteForm() {
  const intl = useIntl();
  const id = useId();
  const [email, setEmail] = useState("");
  const [problem, setProblem] = useState<string>();
  const [toPassOn, setToPassOn] = useState<InvitationSent>();
  const invite = useInvite();
  const problemId = `${id}-problem`;

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const address = email.trim();
    if (address === "" || invite.isPending) return;
    setProblem(undefined);
    setToPassOn(undefined);
    invite.mutate(address, {
      onSuccess: (sent) => {
        setEmail("");
        if (sent.emailed)
          notify.success(
            intl.formatMessage({ id: "invite.sent" }),
            intl.formatMessage({ id: "invite.sentDetail" }, { email: sent.email }),
          );
        else setToPassOn(sent);
      },
      onError: (error) => {
        if (error instanceof ApiError && error.status < 500) setProblem(error.message);
        else notify.error(intl.formatMessage({ id: "toast.error" }), intl.formatMessage({ id: "invite.failed" }));
      },
    });
  }

  return (
    <div className="flex flex-col gap-4">
      <form className="flex flex-col gap-2" onSubmit={handleSubmit} noValidate>
        <Label htmlFor={id}>{intl.formatMessage({ id: "invite.label" })}</Label>
        <div className="flex flex-col gap-2 sm:flex-row">
          <Input
            id={id}
            type="email"
            autoComplete="off"
            placeholder={intl.formatMessage({ id: "invite.placeholder" })}
            value={email}
            onChange={(event) => {
              setEmail(event.target.value);
              setProblem(undefined);
            }}
            aria-invalid={problem !== undefined}
            aria-describedby={problem ? problemId : undefined}
          />
          <Button type="submit" disabled={email.trim() === "" || invite.isPending} className="sm:w-40">
            {invite.isPending ? intl.formatMessage({ id: "invite.sending" }) : intl.formatMessage({ id: "invite.send" })}
          </Button>
        </div>
        <FieldProblem id={problemId} problem={problem} />
      </form>
      {toPassOn && <LinkToPassOn invitation={toPassOn} />}
    </div>
  );
}

/** Shown when the server could not e-mail the invitation: the link, with a copy button. */
function LinkToPassOn({ invitation }: { invitation: InvitationSent }) {
  const id = useId();
  const [copied, setCopied] = useState(false);
  const intl = useIntl();
  return (
    <Alert>
      <AlertTitle>{intl.formatMessage({ id: "invite.passOn.title" }, { email: invitation.email })}</AlertTitle>
      <AlertDescription>
        <p>{intl.formatMessage({ id: "invite.passOn" }, { email: invitation.email })}</p>
        <div className="mt-2 flex w-full flex-col gap-2 sm:flex-row">
          <Label htmlFor={id} className="sr-only">
            {intl.formatMessage({ id: "invite.link" })}
          </Label>
          <Input id={id} readOnly value={invitation.link} onFocus={(event) => event.currentTarget.select()} />
          <Button
            type="button"
            variant="outline"
            onClick={() =>
              void navigator.clipboard.writeText(invitation.link).then(
                () => setCopied(true),
                () => notify.error(intl.formatMessage({ id: "toast.error" }), intl.formatMessage({ id: "invite.copyFailed" })),
              )
            }
          >
            {copied ? <CheckIcon aria-hidden="true" /> : <CopyIcon aria-hidden="true" />}
            {copied ? intl.formatMessage({ id: "invite.copied" }) : intl.formatMessage({ id: "invite.copy" })}
          </Button>
        </div>
      </AlertDescription>
    </Alert>
  );
}
