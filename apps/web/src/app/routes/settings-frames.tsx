import { SettingsSection } from "@/components/settings-section";
import { FrameList } from "@/features/frames/components/frame-list";
import { useIntl } from "@/lib/intl";

/** Settings → Frames (ADR 0076): the frames paired with the collection, and how to add one. */
export function FramesSettingsRoute() {
  const intl = useIntl();
  return (
    <SettingsSection
      title={intl.formatMessage({ id: "frames.title" })}
      description={intl.formatMessage({ id: "frames.description" })}
    >
      <FrameList />
    </SettingsSection>
  );
}
