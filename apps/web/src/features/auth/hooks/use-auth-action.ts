import { useState } from "react";

import { reportUnexpectedAuthError } from "@/features/auth/hooks/invitation-gate";

/**
 * Runs an auth flow on submit and says whether one is under way (`isPending`, the busy flag).
 * The flows report their own expected failures; anything they throw is reported as unexpected.
 */
export function useAuthAction<Input>(action: (input: Input) => Promise<void>) {
  // A count rather than a flag: a second run started before the first ends keeps the form busy.
  const [inFlight, setInFlight] = useState(0);
  const run = (input: Input) => {
    setInFlight((count) => count + 1);
    void action(input)
      .catch(reportUnexpectedAuthError)
      .finally(() => setInFlight((count) => count - 1));
  };
  return { isPending: inFlight > 0, run };
}
