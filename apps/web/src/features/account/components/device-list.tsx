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
import { activeIntl, useIntl } from "@/lib/intl";

/** "Chrome 131 on Android 15", or what little the device told about itself. */
function deviceName(device: Device): string {
  if (device.browser && device.system) return `${device.browser} on ${device.system}`;
  return device.browser ?? device.system ?? activeIntl().formatMessage({ id: "devices.unknown" });
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
  const intl = useIntl();
  const signOutDevice = useSignOutDevice();
  const signOutOthers = useSignOutOtherDevices();

  if (devices.isError)
    return (
      <p className="text-sm text-destructive" role="alert">
        {intl.formatMessage({ id: "devices.loadFailed" })}
      </p>
    );
  if (!devices.data) return <Spinner>{intl.formatMessage({ id: "devices.loading" })}</Spinner>;
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
                {device.current && <Badge variant="secondary">{intl.formatMessage({ id: "devices.thisDevice" })}</Badge>}
              </>
            }
            detail={intl.formatMessage(
              { id: "devices.detail" },
              {
                signedIn: formatDay(device.signed_in_at),
                active: formatSince(device.last_active_at),
              },
            )}
            action={
              !device.current && (
                <ConfirmDialog
                  trigger={
                    <Button variant="outline" size="sm" disabled={signOutDevice.isPending}>
                      {intl.formatMessage({ id: "devices.signOut" })}
                    </Button>
                  }
                  title={intl.formatMessage({ id: "devices.signOut.title" }, { device: deviceName(device) })}
                  description={intl.formatMessage({ id: "devices.signOut.description" })}
                  confirmLabel={intl.formatMessage({ id: "devices.signOut" })}
                  destructive
                  onConfirm={() =>
                    signOutDevice.mutate(device.id, {
                      onSuccess: () =>
                        notify.success(
                          intl.formatMessage({ id: "devices.signedOut" }),
                          intl.formatMessage({ id: "devices.signedOutDetail" }, { device: deviceName(device) }),
                        ),
                      onError: () =>
                        notify.error(
                          intl.formatMessage({ id: "toast.error" }),
                          intl.formatMessage({ id: "devices.signOut.failed" }),
                        ),
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
              {intl.formatMessage({ id: "devices.others" })}
            </Button>
          }
          title={intl.formatMessage({ id: "devices.others.title" })}
          description={intl.formatMessage({ id: "devices.others.description" }, { others })}
          confirmLabel={intl.formatMessage({ id: "devices.others" })}
          destructive
          onConfirm={() =>
            void runWithSecondStep(
              () => signOutOthers.mutateAsync(),
              (error) =>
                error
                  ? notify.error(intl.formatMessage({ id: "toast.error" }), intl.formatMessage({ id: "devices.others.failed" }))
                  : notify.success(
                      intl.formatMessage({ id: "devices.others.done" }),
                      intl.formatMessage({ id: "devices.others.doneDetail" }),
                    ),
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
