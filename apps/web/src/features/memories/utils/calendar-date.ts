/**
 * Today as this device's calendar shows it ("YYYY-MM-DD"): "On this day" is the member's day,
 * wherever they are. Apart from the labels (utils/on-this-day.ts), so that the first screen's
 * script asks for the day's memories without the formatter.
 */
export function localCalendarDate(now: Date = new Date()): string {
  const pad = (value: number) => String(value).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}
