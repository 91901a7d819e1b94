// The message catalogs: one ICU MessageFormat JSON file per locale under ./messages, namespaced by
// the face that shows them (email, wallet, verify, ...). English is the reference: catalogs.test.ts
// checks that every other catalog has exactly its keys and the same arguments in each message.
// All eight are imported statically: together they are a few kilobytes, and a page or an email never
// waits for a file read.
import ar from "./messages/ar.json";
import de from "./messages/de.json";
import en from "./messages/en.json";
import es from "./messages/es.json";
import fr from "./messages/fr.json";
import hi from "./messages/hi.json";
import ptBR from "./messages/pt-BR.json";
import zhHans from "./messages/zh-Hans.json";
import type { Locale } from "./locales";

export type Messages = typeof en;

export const CATALOGS: Record<Locale, Messages> = { en, es, fr, de, "pt-BR": ptBR, ar, "zh-Hans": zhHans, hi };

export function messagesFor(locale: Locale): Messages {
  return CATALOGS[locale];
}
