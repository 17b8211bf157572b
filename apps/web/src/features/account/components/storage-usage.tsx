import { useAccountUsage } from "@/features/account/api/usage";
import { useIntl, type AppIntl } from "@/lib/intl";

const units = [
  { unit: "gigabyte", bytes: 1024 ** 3 },
  { unit: "megabyte", bytes: 1024 ** 2 },
  { unit: "kilobyte", bytes: 1024 },
] as const;

/** Bytes in the largest unit that keeps a whole number in front ("2.4 GB", "380 MB"), in the member's language. */
function formatSize(intl: Pick<AppIntl, "intlLocale">, bytes: number): string {
  const { unit, bytes: size } = units.find((candidate) => bytes >= candidate.bytes) ?? units.at(-1)!;
  return new Intl.NumberFormat(intl.intlLocale, {
    style: "unit",
    unit,
    unitDisplay: "short",
    maximumFractionDigits: bytes >= 10 * size ? 0 : 1,
  }).format(bytes / size);
}

/** "Your data": how many photos and videos the member uploaded, and the space they take on the server. */
export function StorageUsage() {
  const intl = useIntl();
  const usage = useAccountUsage();
  if (usage.isError) {
    return <p className="text-sm text-muted-foreground">{intl.formatMessage({ id: "account.usage.failed" })}</p>;
  }
  if (!usage.data) {
    return (
      <p className="text-sm text-muted-foreground" aria-busy="true">
        {intl.formatMessage({ id: "account.usage.loading" })}
      </p>
    );
  }
  const { photos, videos } = usage.data;
  return (
    <ul className="flex flex-col gap-1 text-sm" aria-label={intl.formatMessage({ id: "account.usage.label" })}>
      <li>{intl.formatMessage({ id: "account.usage.photos" }, { count: photos.count, size: formatSize(intl, photos.bytes) })}</li>
      <li>{intl.formatMessage({ id: "account.usage.videos" }, { count: videos.count, size: formatSize(intl, videos.bytes) })}</li>
    </ul>
  );
}
