// The designer's font families as web fonts, for the font picker to show each name in its own face.
// next/font/local serves each file from /_next/static/media under a content hash, cached as
// immutable; no CDN. Only the Latin 400 face (the names are Latin), and not preloaded: the browser
// fetches a face when the picker first draws a name in it.
import localFont from "next/font/local";
import type { FontFamily } from "@/lib/render/document";

const face_inter = localFont({
  src: "../../../../../node_modules/@fontsource/inter/files/inter-latin-400-normal.woff",
  weight: "400",
  display: "swap",
  preload: false,
  fallback: ["system-ui", "sans-serif"],
});
const face_montserrat = localFont({
  src: "../../../../../node_modules/@fontsource/montserrat/files/montserrat-latin-400-normal.woff",
  weight: "400",
  display: "swap",
  preload: false,
  fallback: ["system-ui", "sans-serif"],
});
const face_lato = localFont({
  src: "../../../../../node_modules/@fontsource/lato/files/lato-latin-400-normal.woff",
  weight: "400",
  display: "swap",
  preload: false,
  fallback: ["system-ui", "sans-serif"],
});
const face_source_sans_3 = localFont({
  src: "../../../../../node_modules/@fontsource/source-sans-3/files/source-sans-3-latin-400-normal.woff",
  weight: "400",
  display: "swap",
  preload: false,
  fallback: ["system-ui", "sans-serif"],
});
const face_noto_serif = localFont({
  src: "../../../../../node_modules/@fontsource/noto-serif/files/noto-serif-latin-400-normal.woff",
  weight: "400",
  display: "swap",
  preload: false,
  fallback: ["system-ui", "sans-serif"],
});
const face_playfair_display = localFont({
  src: "../../../../../node_modules/@fontsource/playfair-display/files/playfair-display-latin-400-normal.woff",
  weight: "400",
  display: "swap",
  preload: false,
  fallback: ["system-ui", "sans-serif"],
});
const face_eb_garamond = localFont({
  src: "../../../../../node_modules/@fontsource/eb-garamond/files/eb-garamond-latin-400-normal.woff",
  weight: "400",
  display: "swap",
  preload: false,
  fallback: ["system-ui", "sans-serif"],
});
const face_lora = localFont({
  src: "../../../../../node_modules/@fontsource/lora/files/lora-latin-400-normal.woff",
  weight: "400",
  display: "swap",
  preload: false,
  fallback: ["system-ui", "sans-serif"],
});
const face_great_vibes = localFont({
  src: "../../../../../node_modules/@fontsource/great-vibes/files/great-vibes-latin-400-normal.woff",
  weight: "400",
  display: "swap",
  preload: false,
  fallback: ["system-ui", "sans-serif"],
});
const face_pinyon_script = localFont({
  src: "../../../../../node_modules/@fontsource/pinyon-script/files/pinyon-script-latin-400-normal.woff",
  weight: "400",
  display: "swap",
  preload: false,
  fallback: ["system-ui", "sans-serif"],
});
const face_dancing_script = localFont({
  src: "../../../../../node_modules/@fontsource/dancing-script/files/dancing-script-latin-400-normal.woff",
  weight: "400",
  display: "swap",
  preload: false,
  fallback: ["system-ui", "sans-serif"],
});
const face_jetbrains_mono = localFont({
  src: "../../../../../node_modules/@fontsource/jetbrains-mono/files/jetbrains-mono-latin-400-normal.woff",
  weight: "400",
  display: "swap",
  preload: false,
  fallback: ["system-ui", "sans-serif"],
});
const face_cinzel = localFont({
  src: "../../../../../node_modules/@fontsource/cinzel/files/cinzel-latin-400-normal.woff",
  weight: "400",
  display: "swap",
  preload: false,
  fallback: ["system-ui", "sans-serif"],
});
const face_abril_fatface = localFont({
  src: "../../../../../node_modules/@fontsource/abril-fatface/files/abril-fatface-latin-400-normal.woff",
  weight: "400",
  display: "swap",
  preload: false,
  fallback: ["system-ui", "sans-serif"],
});
const face_oswald = localFont({
  src: "../../../../../node_modules/@fontsource/oswald/files/oswald-latin-400-normal.woff",
  weight: "400",
  display: "swap",
  preload: false,
  fallback: ["system-ui", "sans-serif"],
});

/** The CSS font-family that draws each family's name in its own face. */
export const PICKER_FONT_FACES: Record<FontFamily, string> = {
  Inter: face_inter.style.fontFamily,
  Montserrat: face_montserrat.style.fontFamily,
  Lato: face_lato.style.fontFamily,
  "Source Sans 3": face_source_sans_3.style.fontFamily,
  "Noto Serif": face_noto_serif.style.fontFamily,
  "Playfair Display": face_playfair_display.style.fontFamily,
  "EB Garamond": face_eb_garamond.style.fontFamily,
  Lora: face_lora.style.fontFamily,
  "Great Vibes": face_great_vibes.style.fontFamily,
  "Pinyon Script": face_pinyon_script.style.fontFamily,
  "Dancing Script": face_dancing_script.style.fontFamily,
  "JetBrains Mono": face_jetbrains_mono.style.fontFamily,
  Cinzel: face_cinzel.style.fontFamily,
  "Abril Fatface": face_abril_fatface.style.fontFamily,
  Oswald: face_oswald.style.fontFamily,
};
