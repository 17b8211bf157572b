import type { ImportFormat, ImportProgress, ImportResult } from "@memory-box/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";

import { apiFetch, apiUpload } from "@/lib/api-client";

export interface ImportInput {
  file: File;
  format: ImportFormat;
  /** How much of the file has been sent, from 0 to 1. */
  onSent: (sent: number) => void;
}

/** "Import" (owners): the archive goes as the request body, so the upload's progress can be shown; everything is read again after. */
export function useImportArchive() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ file, format, onSent }: ImportInput) =>
      apiUpload<ImportResult>(`/api/v1/account/import?from=${format}`, file, {
        contentType: "application/zip",
        onProgress: onSent,
      }),
    // New memories, tags and authors: everything the screens show is read again.
    onSettled: () => queryClient.invalidateQueries(),
  });
}

/** The server's side of a running import (checking, photos, saving), asked every second while `running`. */
export function useImportProgress(running: boolean) {
  return useQuery({
    queryKey: ["account", "import-progress"],
    queryFn: ({ signal }) => apiFetch<ImportProgress>("/api/v1/account/import/progress", { signal }),
    enabled: running,
    refetchInterval: running ? 1_000 : false,
    gcTime: 0,
  });
}
