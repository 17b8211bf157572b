import { LogInIcon } from "lucide-react";

import { Button } from "@/components/ui/button";
import { continueWith, type SignInProvider, useSignInProviders } from "@/features/auth/api/providers";
import { useAuthAction } from "@/features/auth/hooks/use-auth-action";
import { notify } from "@/lib/notify";

async function go(provider: SignInProvider): Promise<void> {
  const { error } = await continueWith(provider);
  if (error) notify.error("Authentication Error", error.message);
}

/** "Continue with {name}" for each provider the operator configured (ADR 0034); nothing when there is none. */
export function ProviderButtons() {
  const providers = useSignInProviders();
  const { isPending, run } = useAuthAction(go);
  if (providers.length === 0) return null;
  return (
    <div className="flex flex-col gap-2">
      {providers.map((provider) => (
        <Button
          key={provider.id}
          type="button"
          variant="outline"
          className="w-full"
          disabled={isPending}
          onClick={() => run(provider)}
        >
          <LogInIcon aria-hidden="true" />
          Continue with {provider.name}
        </Button>
      ))}
    </div>
  );
}
