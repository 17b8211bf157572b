import type { WebMessageId } from "@memory-box/messages/web";
import { useState } from "react";

import { ChoiceGroup } from "@/components/choice-group";
import { chooseTheme, storedTheme, type ThemeChoice } from "@/lib/theme";
import { useIntl } from "@/lib/intl";

const choices = [
  { value: "system", label: "settings.appearance.system" },
  { value: "light", label: "settings.appearance.light" },
  { value: "dark", label: "settings.appearance.dark" },
] as const satisfies readonly { value: ThemeChoice; label: WebMessageId }[];

/** Light, dark, or the device's own setting; kept on this device and applied at once. */
export function AppearanceChoice() {
  const intl = useIntl();
  const [choice, setChoice] = useState<ThemeChoice>(() => storedTheme());
  return (
    <ChoiceGroup
      legend={intl.formatMessage({ id: "settings.appearance.legend" })}
      name="appearance"
      options={choices.map(({ value, label }) => ({ value, label: intl.formatMessage({ id: label }) }))}
      value={choice}
      onChange={(value) => {
        chooseTheme(value);
        setChoice(value);
      }}
    />
  );
}
