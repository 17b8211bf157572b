import { useEffect, useRef } from "react";
import { useNavigate } from "react-router";

import { paths } from "@/config/paths";
import { useOnline } from "@/hooks/use-online";
import { isMemoryMissing, useMemory } from "@/features/memories/api/get-memory";
import { activeIntl } from "@/lib/intl";
import { notify } from "@/lib/notify";

/**
 * The memory a page shows (its details, or its photos in the viewer): `missing` when it does not
 * exist ("Memory not found."); any other failure of the first load is reported, as the spec
 * says, and the person is sent home. A failed background refetch keeps what was loaded. Offline,
 * a memory this device has not kept is `notOnDevice`: no error, no bounce home (issue #34); it
 * loads by itself when the connection returns.
 */
export function useMemoryPage(id: string) {
  const navigate = useNavigate();
  const query = useMemory(id);
  const missing = query.isError && isMemoryMissing(query.error);
  const online = useOnline();
  const unloaded = query.isError && !missing && query.data === undefined;
  const notOnDevice = unloaded && !online;
  const failed = unloaded && online;
  const reportedFailure = useRef(false);
  useEffect(() => {
    if (!failed || reportedFailure.current) return;
    reportedFailure.current = true;
    notify.error(activeIntl().formatMessage({ id: "toast.error" }), activeIntl().formatMessage({ id: "memory.loadFailed" }));
    void navigate(paths.home, { replace: true });
  }, [failed, navigate]);
  return { missing, notOnDevice, memory: query.data };
}
