const svgNamespace = "http://www.w3.org/2000/svg";

/**
 * A place's pin for a MapLibre marker (anchored at its tip), in the app's accent colour: MapLibre's
 * own pin takes one fixed colour, this one follows the theme through the design tokens' classes.
 * Decoration: the map's text beside it names the place.
 */
export function pinElement(): HTMLElement {
  const element = document.createElement("div");
  element.className = "text-primary drop-shadow-sm";
  element.setAttribute("aria-hidden", "true");
  const svg = document.createElementNS(svgNamespace, "svg");
  svg.setAttribute("viewBox", "0 0 24 32");
  svg.setAttribute("width", "28");
  svg.setAttribute("height", "37");
  const body = document.createElementNS(svgNamespace, "path");
  body.setAttribute("d", "M12 1C5.9 1 1 5.9 1 12c0 8.3 11 19 11 19s11-10.7 11-19C23 5.9 18.1 1 12 1z");
  body.setAttribute("fill", "currentColor");
  body.setAttribute("class", "stroke-background");
  body.setAttribute("stroke-width", "1.5");
  const dot = document.createElementNS(svgNamespace, "circle");
  dot.setAttribute("cx", "12");
  dot.setAttribute("cy", "12");
  dot.setAttribute("r", "4.5");
  dot.setAttribute("class", "fill-background");
  svg.append(body, dot);
  element.append(svg);
  return element;
}
