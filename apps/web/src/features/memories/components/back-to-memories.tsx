import { Link } from "react-router";
import { ArrowLeftIcon } from "lucide-react";

import { Button } from "@/components/ui/button";
import { paths } from "@/config/paths";

/** The detail page's way back to the home screen. */
export function BackToMemories() {
  return (
    <Button asChild variant="ghost">
      <Link to={paths.home}>
        <ArrowLeftIcon aria-hidden="true" />
        Back to Memories
      </Link>
    </Button>
  );
}
