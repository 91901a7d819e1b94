// {PUBLIC_URL}/about: the product, its licence, and the attributions the third-party content it ships
// requires. The Twemoji graphics drawn into credential images are CC-BY 4.0, which asks for visible
// credit; the fonts (SIL Open Font License 1.1) and the JSON-LD contexts are named here too.
// THIRD_PARTY_NOTICES.md in the repository is the full list; keep the two in step.
import type { Metadata } from "next";
import styles from "./about.module.css";

export const metadata: Metadata = {
  title: "About",
  description: "The credential issuing service: its licence and the third-party content it ships.",
};

const FONTS = [
  ["Inter", "The Inter Project Authors"],
  ["Noto Serif, Noto Sans Arabic, Bengali, Devanagari, Hebrew, Tamil and Thai", "The Noto Project Authors"],
  ["Noto Sans JP, KR and SC", "Google Inc."],
  ["Great Vibes", "The Great Vibes Pro Project Authors"],
  ["Montserrat", "The Montserrat Project Authors"],
  ["Lato", "tyPoland Lukasz Dziedzic"],
  ["Source Sans 3", "Google Inc."],
  ["Playfair Display", "The Playfair Display Project Authors"],
  ["EB Garamond", "The EB Garamond Project Authors"],
  ["Lora", "The Lora Project Authors"],
  ["Pinyon Script", "The PinyonScript Project Authors"],
  ["Dancing Script", "The Dancing Script Project Authors"],
  ["JetBrains Mono", "The JetBrains Mono Project Authors"],
  ["Cinzel", "The Cinzel Project Authors"],
  ["Abril Fatface", "TypeTogether"],
  ["Oswald", "The Oswald Project Authors"],
] as const;

export default function AboutPage() {
  return (
    <main className={styles.page}>
      <h1 className={styles.title}>About</h1>
      <p className={styles.lead}>
        This site runs the credential issuing service, open-source software with which organizations issue digital certificates and badges
        (Open Badges 3.0 verifiable credentials) and their recipients keep and share them. The service is released under the{" "}
        <a href="https://opensource.org/license/mit">MIT License</a>, copyright the credential issuing service contributors.
      </p>

      <h2>Emoji</h2>
      <p>
        Emoji in credential images are <a href="https://github.com/jdecked/twemoji">Twemoji</a> graphics, copyright Twitter, Inc. and other
        contributors, licensed under <a href="https://creativecommons.org/licenses/by/4.0/">CC-BY 4.0</a>.
      </p>

      <h2>Fonts</h2>
      <p>
        Credential images and PDFs are set in these fonts, each licensed under the{" "}
        <a href="https://openfontlicense.org/open-font-license-official-text/">SIL Open Font License, Version 1.1</a>:
      </p>
      <ul className={styles.list}>
        {FONTS.map(([name, holder]) => (
          <li key={name}>
            {name}: copyright {holder}
          </li>
        ))}
      </ul>

      <h2>Verifiable credential vocabularies</h2>
      <p>
        Credentials are read and signed with bundled copies of the JSON-LD contexts of the W3C Verifiable Credentials Data Model, W3C
        Decentralized Identifiers and W3C Data Integrity (under the{" "}
        <a href="https://www.w3.org/copyright/software-license/">W3C Software and Document License</a>), and of 1EdTech Open Badges 3.0 (as
        packaged by the Digital Credentials Consortium under the MIT License).
      </p>
    </main>
  );
}
