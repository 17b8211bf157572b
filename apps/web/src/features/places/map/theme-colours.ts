import type { MapColours } from "@/features/places/map/embedded-style";

/** Which design token (src/index.css) each part of the embedded map is painted with. */
const tokens: Record<keyof MapColours, string> = {
  water: "--secondary",
  land: "--card",
  coast: "--input",
  border: "--input",
};

/**
 * The map's colours as the theme shown on `element` makes them: each token is resolved by the
 * browser (its `light-dark()` follows the page's scheme), then made `rgb()` through a canvas, as
 * MapLibre reads only the older colour syntaxes and the tokens are `oklch()`.
 */
export function mapColours(element: HTMLElement): MapColours {
  const probe = document.createElement("span");
  probe.hidden = true;
  element.append(probe);
  const context = document.createElement("canvas").getContext("2d", { willReadFrequently: true });
  try {
    const read = (token: string) => {
      probe.style.color = `var(${token})`;
      return asRgb(getComputedStyle(probe).color, context);
    };
    return {
      water: read(tokens.water),
      land: read(tokens.land),
      coast: read(tokens.coast),
      border: read(tokens.border),
    };
  } finally {
    probe.remove();
  }
}

function asRgb(colour: string, context: CanvasRenderingContext2D | null): string {
  if (!context) return colour;
  context.clearRect(0, 0, 1, 1);
  context.fillStyle = colour;
  context.fillRect(0, 0, 1, 1);
  const [red, green, blue, alpha] = context.getImageData(0, 0, 1, 1).data;
  return alpha === 255 ? `rgb(${red}, ${green}, ${blue})` : `rgba(${red}, ${green}, ${blue}, ${(alpha ?? 255) / 255})`;
}

/** Calls `onChange` when the theme shown may have changed: the member's choice (a class on <html>) or the system's. */
export function watchTheme(onChange: () => void): () => void {
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ["class"] });
  const scheme = window.matchMedia("(prefers-color-scheme: dark)");
  scheme.addEventListener("change", onChange);
  return () => {
    observer.disconnect();
    scheme.removeEventListener("change", onChange);
  };
}
