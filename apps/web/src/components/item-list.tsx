import type { ComponentType, ReactNode } from "react";

/** The bordered list Settings shows things in (devices, passkeys, second factors), one row each. */
export function ItemList({ label, children }: { label?: string; children: ReactNode }) {
  return (
    <ul className="flex flex-col divide-y rounded-lg border bg-card" aria-label={label}>
      {children}
    </ul>
  );
}

/**
 * One row: an icon, a name (with anything beside it, such as a badge), a line of detail, and an
 * action on the right (below on a narrow screen). `label` names the row for assistive technology.
 */
export function ItemRow({
  label,
  icon: Icon,
  title,
  detail,
  action,
}: {
  label: string;
  icon: ComponentType<{ "aria-hidden"?: boolean | "true"; className?: string }>;
  title: ReactNode;
  detail: ReactNode;
  action?: ReactNode;
}) {
  return (
    <li aria-label={label} className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between">
      <div className="flex min-w-0 items-start gap-3">
        <Icon aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-muted-foreground" />
        <div className="flex min-w-0 flex-col gap-1">
          <div className="flex flex-wrap items-center gap-2">{title}</div>
          <span className="text-sm text-muted-foreground">{detail}</span>
        </div>
      </div>
      {action}
    </li>
  );
}
