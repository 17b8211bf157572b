/**
 * The first screen's second target (ADR 0039): turns the element tree home's own components
 * describe (`<HomeFrame>`, `<MemoryListView>`, `<MemoryCardView>`…, the same JSX React renders)
 * into DOM nodes, without React. Components are called as the functions they are, so they must
 * not use hooks; a component that does (state, effects, a router's context) or that comes from a
 * library is rendered by its `substitute`: what it renders on its first frame, before any effect
 * or interaction. Text goes in as text, never as markup.
 */

export interface ElementLike {
  type: unknown;
  props: Record<string, unknown>;
}

export type Substitute = (props: Record<string, unknown>) => unknown;

/** Fragments in React's element trees and in the first script's own JSX runtime. */
const fragment = Symbol.for("react.fragment");

/** Style properties React writes without a unit when given a number. */
const unitless = new Set(["aspectRatio", "flexGrow", "flexShrink", "fontWeight", "lineHeight", "opacity", "order", "zIndex"]);

/** Attributes React writes as present ("") or absent, rather than as "true" or "false". */
const booleanAttributes = new Set([
  "disabled",
  "hidden",
  "inert",
  "checked",
  "readOnly",
  "required",
  "multiple",
  "autoFocus",
  "open",
]);

/** Props that are never attributes. */
const notAttributes = new Set(["children", "key", "ref", "dangerouslySetInnerHTML"]);

function isElement(node: unknown): node is ElementLike {
  return typeof node === "object" && node !== null && "type" in node && "props" in node;
}

function attributeName(prop: string): string {
  if (prop === "className") return "class";
  if (prop === "htmlFor") return "for";
  if (prop.startsWith("aria-") || prop.startsWith("data-")) return prop;
  return prop.toLowerCase();
}

/** A prop's value as React writes it into an attribute: strings, numbers and booleans only. */
function text(value: unknown): string {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  throw new Error("The first screen cannot write this value into an attribute");
}

function setProps(element: HTMLElement, props: Record<string, unknown>): void {
  let src: string | undefined;
  for (const [prop, value] of Object.entries(props)) {
    if (notAttributes.has(prop) || value === undefined || value === null || typeof value === "function") continue;
    if (prop === "style") {
      for (const [name, styleValue] of Object.entries(value as Record<string, unknown>)) {
        if (styleValue === undefined || styleValue === null || styleValue === "") continue;
        (element.style as unknown as Record<string, string>)[name] =
          typeof styleValue === "number" && !unitless.has(name) ? `${styleValue}px` : text(styleValue);
      }
      continue;
    }
    if (typeof value === "boolean" && !prop.startsWith("aria-") && !prop.startsWith("data-")) {
      if (value && booleanAttributes.has(prop)) element.setAttribute(attributeName(prop), "");
      continue;
    }
    // Last, as React sets it: an image's request starts with every other attribute in place.
    if (prop === "src") src = text(value);
    else element.setAttribute(attributeName(prop), text(value));
  }
  if (src !== undefined) element.setAttribute("src", src);
}

/** `node` (an element tree, text, a list, or nothing) as DOM nodes appended to `parent`. */
function append(document: Document, parent: Node, node: unknown, substitutes: ReadonlyMap<unknown, Substitute>): void {
  if (node === null || node === undefined || typeof node === "boolean") return;
  if (typeof node === "string" || typeof node === "number") {
    parent.appendChild(document.createTextNode(String(node)));
    return;
  }
  if (Array.isArray(node)) {
    for (const child of node) append(document, parent, child, substitutes);
    return;
  }
  if (node instanceof Node) {
    parent.appendChild(node);
    return;
  }
  if (!isElement(node)) throw new Error("The first screen cannot render this node");
  const { type, props } = node;
  if (type === fragment) return append(document, parent, props.children, substitutes);
  const substitute = substitutes.get(type);
  if (substitute) return append(document, parent, substitute(props), substitutes);
  if (typeof type === "function") return append(document, parent, (type as Substitute)(props), substitutes);
  if (typeof type !== "string") throw new Error("The first screen has no substitute for a component it renders");
  const element = document.createElement(type);
  setProps(element, props);
  append(document, element, props.children, substitutes);
  parent.appendChild(element);
}

/** The element tree `node` as one DOM node (its first, for a tree that renders a single element). */
export function renderToDom(document: Document, node: unknown, substitutes: ReadonlyMap<unknown, Substitute>): Node | null {
  const holder = document.createDocumentFragment();
  append(document, holder, node, substitutes);
  return holder.firstChild;
}

/**
 * Radix's `Slot` (`asChild`), on its first frame: the slot's props merged onto its one child, the
 * child's own winning, class names joined and styles merged as Radix does.
 */
export function slotted(props: Record<string, unknown>): unknown {
  const { children, ...slotProps } = props;
  if (!isElement(children)) return children;
  const childProps = children.props;
  const className = [slotProps.className, childProps.className].filter(Boolean).join(" ") || undefined;
  const style =
    slotProps.style || childProps.style
      ? { ...(slotProps.style as object | undefined), ...(childProps.style as object | undefined) }
      : undefined;
  return { type: children.type, props: { ...slotProps, ...childProps, className, style } };
}
