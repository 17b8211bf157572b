import type { Device } from "@memory-box/contract";
import { LaptopIcon } from "lucide-react";

import { ConfirmDialog } from "@/components/confirm-dialog";
import { ItemList, ItemRow } from "@/components/item-list";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { useDevices, useSignOutDevice, useSignOutOtherDevices } from "@/features/account/api/devices";
import { formatDay, formatSince } from "@/lib/dates";
import { notify } from "@/lib/notify";

/** "Chrome 131 on Android 15", or what little the device told about itself. */
function deviceName(device: Device): string {
  if (device.browser && device.system) return `${device.browser} on ${device.system}`;
  return device.browser ?? device.system ?? "Unknown device";
}

/**
 * The member's signed-in devices, this one first, each with "Sign out"; "Sign out everywhere
 * else" ends every other one. A device signed out here is refused on its very next request.
 */
export function DeviceList({
  runWithSecondStep = runDirectly,
}: {
  /**
   * Runs the sign-out of the other devices, asking for the second step first when the server
   * wants it (a member with a second step whose session has not proven it); `onOutcome` gets the
   * final error, or null.
   */
  runWithSecondStep?: (attempt: () => Promise<unknown>, onOutcome: (error: unknown) => void) => Promise<void>;
} = {}) {
  const devices = useDevices();
  const signOutDevice = useSignOutDevice();
  const signOutOthers = useSignOutOtherDevices();

  if (devices.isError)
    return (
      <p className="text-sm text-destructive" role="alert">
        The devices could not be loaded. Check your connection and reload the page.
      </p>
    );
  if (!devices.data) return <Spinner>Loading devices...</Spinner>;
  const list = devices.data.devices;
  const others = list.filter((device) => !device.current).length;

  return (
    <div className="flex flex-col gap-4">
      <ItemList>
        {list.map((device) => (
          <ItemRow
            key={device.id}
            label={deviceName(device)}
            icon={LaptopIcon}
            title={
              <>
                <span className="font-medium">{deviceName(device)}</span>
                {device.current && <Badge variant="secondary">This device</Badge>}
              </>
            }
            detail={`Signed in ${formatDay(device.signed_in_at)} · active ${formatSince(device.last_active_at)}`}
            action={
              !device.current && (
                <ConfirmDialog
                  trigger={
                    <Button variant="outline" size="sm" disabled={signOutDevice.isPending}>
                      Sign out
                    </Button>
                  }
                  title={`Sign out ${deviceName(device)}?`}
                  description="That device is signed out at once; signing in again there needs your password or an e-mailed code."
                  confirmLabel="Sign out"
                  destructive
                  onConfirm={() =>
                    signOutDevice.mutate(device.id, {
                      onSuccess: () => notify.success("Device signed out", `${deviceName(device)} is signed out.`),
                      onError: () => notify.error("Error", "Failed to sign the device out. Please try again."),
                    })
                  }
                />
              )
            }
          />
        ))}
      </ItemList>
      {others > 0 && (
        <ConfirmDialog
          trigger={
            <Button variant="outline" className="self-start" disabled={signOutOthers.isPending}>
              Sign out everywhere else
            </Button>
          }
          title="Sign out everywhere else?"
          description={`${others === 1 ? "The other device is" : `All ${others} other devices are`} signed out at once. This one stays signed in.`}
          confirmLabel="Sign out everywhere else"
          destructive
          onConfirm={() =>
            void runWithSecondStep(
              () => signOutOthers.mutateAsync(),
              (error) =>
                error
                  ? notify.error("Error", "Failed to sign the other devices out. Please try again.")
                  : notify.success("Signed out everywhere else", "Only this device is signed in now."),
            )
          }
        />
      )}
    </div>
  );
}

async function runDirectly(attempt: () => Promise<unknown>, onOutcome: (error: unknown) => void): Promise<void> {
  try {
    await attempt();
    onOutcome(null);
  } catch (error) {
    onOutcome(error);
  }
}
