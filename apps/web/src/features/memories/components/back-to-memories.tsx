import { Link } from "react-router";
import { ArrowLeftIcon } from "lucide-react";

import { Button } from "@/components/ui/button";
import { paths } from "@/config/paths";
import { useIntl } from "@/lib/intl";

/** The detail page's way back to the home screen. */
export function BackToMemories() {
  const intl = useIntl();
  return (
    <Button asChild variant="ghost">
      <Link to={paths.home}>
        <ArrowLeftIcon aria-hidden="true" className="rtl:-scale-x-100" />
        {intl.formatMessage({ id: "nav.backToMemories" })}
      </Link>
    </Button>
  );
}
