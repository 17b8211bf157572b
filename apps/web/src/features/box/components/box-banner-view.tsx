import type { BoxSettings } from "@memory-box/contract";

import { anniversaryYears } from "@/features/box/utils/anniversary";
import { useIntl } from "@/lib/intl";

/**
 * Home's header of the box (ADR 0065): its cover and name when an owner set them, and on the day
 * of "together since" the anniversary line ("7 years today"), worked out on the device's calendar
 * (`today`). Nothing at all when none of it applies, so home is as it always was. Without state,
 * so the first screen's script draws it too (ADR 0039).
 */
export function BoxBannerView({ box, today }: { box: BoxSettings; today: string }) {
  const intl = useIntl();
  const years = box.together_since === null ? null : anniversaryYears(box.together_since, today);
  if (box.name === null && box.cover === null && years === null) return null;
  return (
    <section
      aria-label={box.name ?? intl.formatMessage({ id: "home.box.label" })}
      className="mb-4 flex items-center gap-4 rounded-xl border bg-card p-4 text-card-foreground shadow-sm"
    >
      {box.cover && (
        <img
          src={box.cover.thumbnail_url}
          alt=""
          width={80}
          height={80}
          className="size-16 shrink-0 rounded-full bg-muted object-cover sm:size-20"
        />
      )}
      <div className="flex min-w-0 flex-col gap-1">
        {box.name !== null && <h2 className="text-xl font-semibold break-words">{box.name}</h2>}
        {years !== null && (
          <p className="text-sm font-medium text-primary">{intl.formatMessage({ id: "home.box.anniversary" }, { years })}</p>
        )}
      </div>
    </section>
  );
}
