import { useEffect, useState } from "react";
import { useNavigate, useParams } from "react-router";

import { HomeRoute } from "@/app/routes/home";
import { paths } from "@/config/paths";
import { LazyMemoryFormDialog } from "@/features/memories/components/lazy-memory-form-dialog";
import { useAuth } from "@/lib/auth-context";
import { notify } from "@/lib/notify";
import { takeSharedPhotos, type SharePickup } from "@/lib/shared-photos";

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
          notify.error("Photos not added", droppedMessage(pickup));
          void navigate(paths.home, { replace: true });
        }
      },
      (error: unknown) => {
        console.error("Could not read the shared photos:", error);
        if (current) {
          notify.error("Photos not added", "The shared photos could not be read on this device. Share them again.");
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
    ? "The shared photos waited too long for a sign-in and were not kept. Share them again."
    : "The shared photos are no longer on this device (they were added, or a sign-out removed them). Share them again.";
}
