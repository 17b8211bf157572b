import { useEffect, useRef } from "react";
import { useNavigate } from "react-router";

import { paths } from "@/config/paths";
import { isMemoryMissing, useMemory } from "@/features/memories/api/get-memory";
import { activeIntl } from "@/lib/intl";
import { notify } from "@/lib/notify";

/**
 * The memory a page shows (its details, or its photos in the viewer): `missing` when it does not
 * exist ("Memory not found."); any other failure of the first load is reported, as the spec
 * says, and the person is sent home. A failed background refetch keeps what was loaded.
 */
export function useMemoryPage(id: string) {
  const navigate = useNavigate();
  const query = useMemory(id);
  const missing = query.isError && isMemoryMissing(query.error);
  const failed = query.isError && !missing && query.data === undefined;
  const reportedFailure = useRef(false);
  useEffect(() => {
    if (!failed || reportedFailure.current) return;
    reportedFailure.current = true;
    notify.error(activeIntl().formatMessage({ id: "toast.error" }), activeIntl().formatMessage({ id: "memory.loadFailed" }));
    void navigate(paths.home, { replace: true });
  }, [failed, navigate]);
  return { missing, memory: query.data };
}
