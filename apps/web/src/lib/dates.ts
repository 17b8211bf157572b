import { activeIntl, dateTimeFormat } from "@/lib/intl";

const relativeFormats = new Map<string, Intl.RelativeTimeFormat>();

/** "November 25, 2026". */
export function formatDay(iso: string): string {
  return dateTimeFormat({ year: "numeric", month: "long", day: "numeric" }).format(new Date(iso));
}

/** "just now", "5 minutes ago", "yesterday", "3 weeks ago": how long since a member was last seen. */
export function formatSince(iso: string, now: Date = new Date()): string {
  const seconds = Math.round((new Date(iso).getTime() - now.getTime()) / 1000);
  const steps: [Intl.RelativeTimeFormatUnit, number][] = [
    ["minute", 60],
    ["hour", 3600],
    ["day", 86_400],
    ["week", 604_800],
    ["month", 2_592_000],
    ["year", 31_536_000],
  ];
  const intl = activeIntl();
  if (Math.abs(seconds) < 60) return intl.formatMessage({ id: "time.justNow" });
  let unit: [Intl.RelativeTimeFormatUnit, number] = steps[0]!;
  for (const step of steps) if (Math.abs(seconds) >= step[1]) unit = step;
  let relative = relativeFormats.get(intl.intlLocale);
  if (!relative) {
    relative = new Intl.RelativeTimeFormat(intl.intlLocale, { numeric: "auto" });
    relativeFormats.set(intl.intlLocale, relative);
  }
  return relative.format(Math.round(seconds / unit[1]), unit[0]);
}
