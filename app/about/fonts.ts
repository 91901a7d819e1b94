// The font families credential images and PDFs are set in, with their copyright holders, as /about
// credits them (SIL Open Font License 1.1). THIRD_PARTY_NOTICES.md has the full statements; a test
// checks both list every @fontsource package the service depends on.
export const FONTS = [
  ["Inter", "The Inter Project Authors"],
  ["Noto Serif, Noto Sans Arabic, Bengali, Devanagari, Hebrew, Tamil and Thai", "The Noto Project Authors"],
  ["Noto Sans JP, KR and SC", "Google Inc."],
  ["Great Vibes", "The Great Vibes Pro Project Authors"],
  ["Playfair Display", "The Playfair Display Project Authors"],
  ["EB Garamond", "The EB Garamond Project Authors"],
  ["Lora", "The Lora Project Authors"],
  ["Montserrat", "The Montserrat Project Authors"],
  ["Lato", "tyPoland Lukasz Dziedzic"],
  ["Source Sans 3", "Adobe"],
  ["Dancing Script", "The Dancing Script Project Authors"],
  ["Pinyon Script", "The PinyonScript Project Authors"],
  ["JetBrains Mono", "The JetBrains Mono Project Authors"],
  ["Cinzel", "The Cinzel Project Authors"],
  ["Abril Fatface", "TypeTogether"],
  ["Oswald", "The Oswald Project Authors"],
] as const;
