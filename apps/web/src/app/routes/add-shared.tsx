import { useEffect, useState } from "react";
import { useNavigate, useParams } from "react-router";

import { HomeRoute } from "@/app/routes/home";
import { paths } from "@/config/paths";
import { LazyMemoryFormDialog } from "@/features/memories/components/lazy-memory-form-dialog";
import { useAuth } from "@/lib/auth-context";
import { notify } from "@/lib/notify";
import { takeSharedPhotos, type SharePickup } from "@/lib/shared-photos";
import { activeIntl } from "@/lib/intl";

/**
 * Where photos shared from the phone's gallery land (ADR 0031): home, with "Add Memory" open and
 * the photos chosen, as if the member had picked them. The service worker kept them on the device
 * for the member signed in, or for whoever signs in next when no one was (the sign-in screen sends
 * them back here). Once the form closes, the address is home's again.
 */
export function AddSharedRoute() {
  const { id = "" } = useParams();
  const member = useAuth().user?.id;
  const navigate = useNavigate();
  const [files, setFiles] = useState<File[]>();

  useEffect(() => {
    if (!member) return;
    let current = true;
    pickUp(id, member).then(
      (pickup) => {
        if (!current) return;
        if (pickup.status === "taken") setFiles(pickup.files);
        else {
          notify.error(activeIntl().formatMessage({ id: "share.notAdded" }), droppedMessage(pickup));
          void navigate(paths.home, { replace: true });
        }
      },
      (error: unknown) => {
        console.error("Could not read the shared photos:", error);
        if (current) {
          notify.error(
            activeIntl().formatMessage({ id: "share.notAdded" }),
            activeIntl().formatMessage({ id: "share.unreadable" }),
          );
          void navigate(paths.home, { replace: true });
        }
      },
    );
    return () => {
      current = false;
    };
  }, [id, member, navigate]);

  return (
    <>
      <HomeRoute />
      {files && (
        <LazyMemoryFormDialog
          open
          initialFiles={files}
          onOpenChange={(open) => {
            if (!open) void navigate(paths.home, { replace: true });
          }}
        />
      )}
    </>
  );
}

/** The pickup on its way per share and member: a share is taken once, and a second run of the effect meanwhile gets the same answer. */
const pickups = new Map<string, Promise<SharePickup>>();

function pickUp(id: string, member: string): Promise<SharePickup> {
  const key = `${member}/${id}`;
  let pickup = pickups.get(key);
  if (!pickup) {
    // Without Cache Storage (plain http) the worker never ran, so nothing was kept.
    pickup = typeof caches === "undefined" ? Promise.resolve({ status: "missing" }) : takeSharedPhotos(caches, id, member);
    pickups.set(key, pickup);
    void pickup.finally(() => pickups.delete(key)).catch(() => undefined);
  }
  return pickup;
}

function droppedMessage(pickup: Exclude<SharePickup, { status: "taken" }>): string {
  return pickup.status === "stale"
    ? activeIntl().formatMessage({ id: "share.stale" })
    : activeIntl().formatMessage({ id: "share.gone" });
}
