import * as React from "react";

import { cn } from "@/lib/utils";

/**
 * Tabs (the WAI-ARIA tabs pattern, as Radix's, whose look and data attributes these keep): the
 * tab shown follows focus, the arrow keys (mirrored right to left), Home and End move between
 * tabs, and only the chosen tab's panel is rendered. Written here rather than taken from Radix:
 * the sign-in page is their only user, and Radix's tabs bring ~5 KB (compressed) to its script.
 */
interface TabsState {
  value: string;
  choose: (value: string) => void;
  id: string;
}

const TabsContext = React.createContext<TabsState | null>(null);

function useTabs(): TabsState {
  const state = React.useContext(TabsContext);
  if (!state) throw new Error("A tab outside <Tabs>");
  return state;
}

const tabId = (id: string, value: string) => `${id}-tab-${value}`;
const panelId = (id: string, value: string) => `${id}-panel-${value}`;

function Tabs({
  className,
  defaultValue,
  value: chosen,
  onValueChange,
  ...props
}: Omit<React.ComponentProps<"div">, "defaultValue"> & {
  defaultValue?: string;
  value?: string;
  onValueChange?: (value: string) => void;
}) {
  const [own, setOwn] = React.useState(defaultValue ?? "");
  const id = React.useId();
  const value = chosen ?? own;
  const state = React.useMemo<TabsState>(
    () => ({
      value,
      id,
      choose: (next) => {
        setOwn(next);
        onValueChange?.(next);
      },
    }),
    [value, id, onValueChange],
  );
  return (
    <TabsContext.Provider value={state}>
      <div data-slot="tabs" data-orientation="horizontal" className={cn("flex flex-col gap-2", className)} {...props} />
    </TabsContext.Provider>
  );
}

function TabsList({ className, onKeyDown, ...props }: React.ComponentProps<"div">) {
  return (
    <div
      role="tablist"
      aria-orientation="horizontal"
      data-slot="tabs-list"
      className={cn(
        "inline-flex h-9 w-fit items-center justify-center rounded-lg bg-muted p-[3px] text-muted-foreground",
        className,
      )}
      onKeyDown={(event) => {
        onKeyDown?.(event);
        const tabs = [...event.currentTarget.querySelectorAll<HTMLButtonElement>('[role="tab"]:not(:disabled)')];
        const at = tabs.indexOf(event.target as HTMLButtonElement);
        if (at < 0) return;
        const rtl = getComputedStyle(event.currentTarget).direction === "rtl";
        const step = { ArrowRight: rtl ? -1 : 1, ArrowLeft: rtl ? 1 : -1 }[event.key];
        const next =
          event.key === "Home" ? 0 : event.key === "End" ? tabs.length - 1 : step ? (at + step + tabs.length) % tabs.length : -1;
        if (next < 0) return;
        event.preventDefault();
        tabs[next]!.focus();
      }}
      {...props}
    />
  );
}

function TabsTrigger({
  className,
  value,
  onClick,
  onFocus,
  ...props
}: Omit<React.ComponentProps<"button">, "value"> & { value: string }) {
  const tabs = useTabs();
  const active = tabs.value === value;
  return (
    <button
      type="button"
      role="tab"
      id={tabId(tabs.id, value)}
      aria-selected={active}
      aria-controls={panelId(tabs.id, value)}
      tabIndex={active ? 0 : -1}
      data-state={active ? "active" : "inactive"}
      data-orientation="horizontal"
      data-slot="tabs-trigger"
      className={cn(
        "inline-flex h-[calc(100%-1px)] flex-1 items-center justify-center gap-1.5 rounded-md border border-transparent px-2 py-1 text-sm font-medium whitespace-nowrap text-foreground transition-[color,box-shadow] focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-1 focus-visible:outline-ring disabled:pointer-events-none disabled:opacity-50 data-[state=active]:bg-background data-[state=active]:shadow-sm dark:text-muted-foreground dark:data-[state=active]:border-input dark:data-[state=active]:bg-input/30 dark:data-[state=active]:text-foreground [&_svg]:pointer-events-none [&_svg]:shrink-0 [&_svg:not([class*='size-'])]:size-4",
        className,
      )}
      onClick={(event) => {
        onClick?.(event);
        if (!event.defaultPrevented && !active) tabs.choose(value);
      }}
      onFocus={(event) => {
        onFocus?.(event);
        // The tab shown follows focus (as Radix's automatic activation).
        if (!active) tabs.choose(value);
      }}
      {...props}
    />
  );
}

function TabsContent({ className, value, ...props }: React.ComponentProps<"div"> & { value: string }) {
  const tabs = useTabs();
  if (tabs.value !== value) return null;
  return (
    <div
      role="tabpanel"
      id={panelId(tabs.id, value)}
      aria-labelledby={tabId(tabs.id, value)}
      tabIndex={0}
      data-state="active"
      data-orientation="horizontal"
      data-slot="tabs-content"
      className={cn("flex-1 outline-none", className)}
      {...props}
    />
  );
}

export { Tabs, TabsList, TabsTrigger, TabsContent };
