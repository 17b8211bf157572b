import qrcode from "qrcode-generator";
import { useMemo } from "react";

/**
 * `value` as a QR code, drawn as one SVG path of its dark modules (error correction M, four modules
 * of quiet zone), dark on light whatever the theme, as phones' cameras read best. `label` names it
 * for assistive technology.
 */
export function QrCode({ value, label, className }: { value: string; label: string; className?: string }) {
  const { size, path } = useMemo(() => {
    const code = qrcode(0, "M");
    code.addData(value);
    code.make();
    const count = code.getModuleCount();
    const quiet = 4;
    let d = "";
    for (let row = 0; row < count; row += 1)
      for (let column = 0; column < count; column += 1)
        if (code.isDark(row, column)) d += `M${column + quiet} ${row + quiet}h1v1h-1z`;
    return { size: count + quiet * 2, path: d };
  }, [value]);
  return (
    <svg
      role="img"
      aria-label={label}
      viewBox={`0 0 ${size} ${size}`}
      shapeRendering="crispEdges"
      className={className}
      xmlns="http://www.w3.org/2000/svg"
    >
      <rect width={size} height={size} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
