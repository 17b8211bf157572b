import { type AppIntl, dateTimeFormat } from "@/lib/intl";

/** A calendar day ("1990-03-14") as that day's local midnight, any year (below 100 too). */
export function bookDay(value: string): Date {
  const [year, month, day] = value.split("-").map(Number) as [number, number, number];
  const date = new Date(2000, month - 1, day);
  date.setFullYear(year);
  return date;
}

/** "March 14, 1990" in the member's language. */
export function formatBookDay(value: string, intl: AppIntl): string {
  return dateTimeFormat({ year: "numeric", month: "long", day: "numeric" }, intl).format(bookDay(value));
}

/** A month of the contents (`YYYY-MM`): "March" in a year's book, "March 1990" in another. */
export function formatBookMonth(month: string, withYear: boolean, intl: AppIntl): string {
  const options: Intl.DateTimeFormatOptions = withYear ? { year: "numeric", month: "long" } : { month: "long" };
  return dateTimeFormat(options, intl).format(bookDay(`${month}-01`));
}

/** "Ann and Ben", "Ann, Ben and Cara": names as the member's language lists them. */
export function formatNames(names: readonly string[], intl: AppIntl): string {
  return new Intl.ListFormat(intl.intlLocale, { type: "conjunction" }).format(names);
}
