import { useState } from "react";

import { ChoiceGroup } from "@/components/choice-group";
import { chooseTheme, storedTheme, type ThemeChoice } from "@/lib/theme";

const choices = [
  { value: "system", label: "As this device is set" },
  { value: "light", label: "Light" },
  { value: "dark", label: "Dark" },
] as const satisfies readonly { value: ThemeChoice; label: string }[];

/** Light, dark, or the device's own setting; kept on this device and applied at once. */
export function AppearanceChoice() {
  const [choice, setChoice] = useState<ThemeChoice>(() => storedTheme());
  return (
    <ChoiceGroup
      legend="Colours"
      name="appearance"
      options={choices}
      value={choice}
      onChange={(value) => {
        chooseTheme(value);
        setChoice(value);
      }}
    />
  );
}
