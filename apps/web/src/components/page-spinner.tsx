import { Spinner } from "@/components/ui/spinner";
import { useIntl } from "@/lib/intl";

/** The whole-screen wait: a centred spinner with visible text ("Loading..." while the session or a screen's code loads). */
export function PageSpinner({ text }: { text?: string }) {
  const intl = useIntl();
  return (
    <Spinner size="lg" className="min-h-svh flex-col bg-muted">
      {text ?? intl.formatMessage({ id: "common.loading" })}
    </Spinner>
  );
}
