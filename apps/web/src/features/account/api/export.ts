import type { ExportLink } from "@memory-box/contract";
import { useMutation } from "@tanstack/react-query";

import { apiFetch } from "@/lib/api-client";

/**
 * "Download everything": asks for a one-minute link, then lets the browser download the archive
 * from it, so a ZIP of any size goes to disk with the browser's own progress, not through memory.
 */
export function useDownloadEverything(startDownload: (url: string) => void = (url) => window.location.assign(url)) {
  return useMutation({
    mutationFn: async () => {
      const link = await apiFetch<ExportLink>("/api/v1/account/export", { method: "POST" });
      startDownload(link.url);
    },
  });
}
