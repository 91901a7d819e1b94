// Every catalog says what English says: the same keys, and each message the same ICU arguments (a
// translation that drops `{organization}` or renames `{date}` would silently lose a value), and every
// message parses as ICU MessageFormat.
import { parse, TYPE, type MessageFormatElement } from "@formatjs/icu-messageformat-parser";
import { describe, expect, it } from "vitest";
import { SUPPORTED_LOCALES } from "./locales";
import { CATALOGS } from "./messages";

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === "string") out.set(path, value);
    else for (const [k, v] of flatten(value, path)) out.set(k, v);
  }
  return out;
}

/** Argument names with their kind (`date:name`, `plural:count`, plain `name`), tags as `<tag>`. */
function argumentsOf(elements: MessageFormatElement[], into = new Set<string>()): Set<string> {
  for (const el of elements) {
    if (el.type === TYPE.argument) into.add(el.value);
    else if (el.type === TYPE.number) into.add(`number:${el.value}`);
    else if (el.type === TYPE.date) into.add(`date:${el.value}`);
    else if (el.type === TYPE.time) into.add(`time:${el.value}`);
    else if (el.type === TYPE.select || el.type === TYPE.plural) {
      into.add(`${el.type === TYPE.select ? "select" : "plural"}:${el.value}`);
      for (const option of Object.values(el.options)) argumentsOf(option.value, into);
    } else if (el.type === TYPE.tag) {
      into.add(`<${el.value}>`);
      argumentsOf(el.children, into);
    }
  }
  return into;
}

const english = flatten(CATALOGS.en);

describe("message catalogs", () => {
  it("English has messages in every namespace", () => {
    expect(english.size).toBeGreaterThan(10);
    expect([...english.values()].every((m) => m.trim() !== "")).toBe(true);
  });

  it.each(SUPPORTED_LOCALES.filter((l) => l !== "en"))("%s has exactly the keys of English", (locale) => {
    const keys = [...flatten(CATALOGS[locale]).keys()].sort();
    expect(keys).toEqual([...english.keys()].sort());
  });

  it.each(SUPPORTED_LOCALES)("%s: every message parses, with the same arguments as English, and is not empty", (locale) => {
    const messages = flatten(CATALOGS[locale]);
    for (const [key, message] of messages) {
      expect(message.trim(), `${locale} ${key}`).not.toBe("");
      let ast: MessageFormatElement[];
      try {
        ast = parse(message);
      } catch (error) {
        throw new Error(`${locale} ${key} does not parse as ICU: ${(error as Error).message}\n${message}`);
      }
      const reference = english.get(key);
      if (reference === undefined) continue; // reported by the key test
      expect([...argumentsOf(ast)].sort(), `${locale} ${key}: ${message}`).toEqual([...argumentsOf(parse(reference))].sort());
    }
  });

  it("an English word left in a translation is the exception, not the rule", () => {
    // Catches a catalog copied from English and never translated: at most a few messages may be equal
    // (brand names, "PNG", "PDF", a name-only message).
    for (const locale of SUPPORTED_LOCALES.filter((l) => l !== "en")) {
      const messages = flatten(CATALOGS[locale]);
      const same = [...messages].filter(([key, m]) => english.get(key) === m && /[a-z]{3}/i.test(m.replace(/\{[^}]*\}/g, "")));
      expect(same.length, `${locale} keeps English in ${same.map(([key]) => key).join(", ")}`).toBeLessThanOrEqual(3);
    }
  });
});
