import { useState } from "react";

import { chooseTheme, storedTheme, type ThemeChoice } from "@/lib/theme";

const choices: { value: ThemeChoice; label: string }[] = [
  { value: "system", label: "As this device is set" },
  { value: "light", label: "Light" },
  { value: "dark", label: "Dark" },
];

/** Light, dark, or the device's own setting; kept on this device and applied at once. */
export function AppearanceChoice() {
  const [choice, setChoice] = useState<ThemeChoice>(() => storedTheme());
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-1 text-sm font-medium">Colours</legend>
      {choices.map((option) => (
        <label key={option.value} className="flex items-center gap-2 text-sm">
          <input
            type="radio"
            className="size-4 accent-primary"
            name="appearance"
            value={option.value}
            checked={choice === option.value}
            onChange={() => {
              chooseTheme(option.value);
              setChoice(option.value);
            }}
          />
          {option.label}
        </label>
      ))}
    </fieldset>
  );
}
