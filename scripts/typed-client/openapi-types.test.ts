import { readFileSync } from "node:fs";
import ts from "typescript";
import { expect, it } from "vitest";
import { generatedTypes, TYPES_FILE } from "./generate-types";

/** The declarations as TypeScript prints them, without whitespace: a formatter's changes to the committed file do not count. */
function declarations(text: string): string {
  const source = ts.createSourceFile("openapi-types.d.ts", text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  return ts.createPrinter({ removeComments: true }).printFile(source).replace(/\s+/g, "");
}

it("the committed client types match the OpenAPI document (else: npm run openapi:types)", async () => {
  const committed = declarations(readFileSync(TYPES_FILE, "utf8"));
  const current = declarations(await generatedTypes());
  expect(committed === current, "scripts/typed-client/openapi-types.d.ts is stale: run `npm run openapi:types` and commit it").toBe(true);
}, 60_000);

it("ignores formatting but not a changed type", () => {
  expect(declarations('export interface A {\n    b: "x" | "y";\n}\n')).toBe(
    declarations('export interface A {\n  b:\n    | "x"\n    | "y";\n}'),
  );
  expect(declarations("export interface A { b: string }")).not.toBe(declarations("export interface A { b: number }"));
});
