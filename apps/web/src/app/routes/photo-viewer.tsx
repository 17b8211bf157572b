import { Link, useNavigate, useParams } from "react-router";

import { Card, CardContent } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import { paths } from "@/config/paths";
import { MemoryNotFound } from "@/features/memories/components/memory-not-found";
import { PhotoViewer } from "@/features/memories/components/photo-viewer";
import { useMemoryPage } from "@/features/memories/hooks/use-memory-page";
import { useIntl } from "@/lib/intl";

/**
 * `/memory/:id/photo/:number`: one photo of a memory in the viewer on a page of its own (the detail
 * page opens its lightbox over itself; a middle click on a photo there still lands here, in a new tab). Stepping through the photos replaces the address, so a reload stays on the photo;
 * closing goes back where the viewer was opened from, or to the memory when it has its own tab.
 */
export function PhotoViewerRoute() {
  const intl = useIntl();
  const { id = "", number = "" } = useParams();
  const navigate = useNavigate();
  const { missing, notOnDevice, memory } = useMemoryPage(id);
  const index = /^\d+$/.test(number) ? Number(number) - 1 : -1;

  if (missing || notOnDevice) return <MemoryNotFound notOnDevice={notOnDevice} />;
  if (memory === undefined) {
    return (
      <Spinner className="min-h-svh bg-muted" size="lg">
        {intl.formatMessage({ id: "photo.loading" })}
      </Spinner>
    );
  }
  if (index < 0 || index >= memory.photos.length) {
    return (
      <div className="min-h-svh bg-muted">
        <main className="mx-auto flex max-w-4xl flex-col gap-4 p-4">
          <Card>
            <CardContent className="flex flex-col items-center gap-2 text-center">
              <p className="text-muted-foreground">{intl.formatMessage({ id: "photo.noSuchPhoto" }, { number })}</p>
              <Link to={paths.memory(memory.id)} className="text-sm font-medium underline underline-offset-4">
                {intl.formatMessage({ id: "photo.backToMemory" })}
              </Link>
            </CardContent>
          </Card>
        </main>
      </div>
    );
  }

  const close = () => {
    // React Router numbers the entries of this tab: above 0, the viewer was reached from inside the app.
    const fromInsideTheApp = ((window.history.state as { idx?: number } | null)?.idx ?? 0) > 0;
    if (fromInsideTheApp) void navigate(-1);
    else void navigate(paths.memory(memory.id), { replace: true });
  };

  return (
    <PhotoViewer
      memory={memory}
      index={index}
      onIndexChange={(next) => void navigate(paths.photo(memory.id, next + 1), { replace: true })}
      onClose={close}
    />
  );
}
