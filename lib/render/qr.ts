// QR codes as vector geometry: one rectangle per horizontal run of dark modules, so both the SVG
// (PNG) and the PDF draw crisp squares rather than a scaled bitmap.
import QRCode from "qrcode";

/** Light modules kept around the code inside the element's box (the spec asks for 4; 2 scans fine on a light background). */
export const QR_QUIET_ZONE = 2;

export interface QrRuns {
  /** Modules per side, without the quiet zone. */
  modules: number;
  /** Dark runs: [column, row, length] in module units. */
  runs: [number, number, number][];
}

const cache = new Map<string, QrRuns>();

export function qrRuns(text: string): QrRuns {
  const hit = cache.get(text);
  if (hit) return hit;
  const qr = QRCode.create(text, { errorCorrectionLevel: "M" });
  const n = qr.modules.size;
  const data = qr.modules.data;
  const runs: [number, number, number][] = [];
  for (let y = 0; y < n; y++) {
    let x = 0;
    while (x < n) {
      if (!data[y * n + x]) {
        x++;
        continue;
      }
      const start = x;
      while (x < n && data[y * n + x]) x++;
      runs.push([start, y, x - start]);
    }
  }
  const result = { modules: n, runs };
  if (cache.size > 1000) cache.clear();
  cache.set(text, result);
  return result;
}
