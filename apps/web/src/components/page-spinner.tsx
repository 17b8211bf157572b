import { Spinner } from "@/components/ui/spinner";

/** The whole-screen wait: a centred spinner with visible text ("Loading..." while the session loads). */
export function PageSpinner({ text = "Loading..." }: { text?: string }) {
  return (
    <Spinner size="lg" className="min-h-svh flex-col bg-muted">
      {text}
    </Spinner>
  );
}
