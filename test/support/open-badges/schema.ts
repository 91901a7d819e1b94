// 1EdTech's Open Badges 3.0 JSON Schema (AchievementCredential, draft 2019-09), the one 1EdTech's
// validator and DCC's verifier run, as a validator for tests. The schema is 1EdTech's work and is not
// copied into this repository (its licence is 1EdTech's, not ours): tests read it from the shared
// reference folder beside the checkout (`shared/schemas/` in any parent directory) or from
// OPEN_BADGES_SCHEMA, and fail plainly when it is not there.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import Ajv2019 from "ajv/dist/2019";
import addFormats from "ajv-formats";

const FILE = "ob_v3p0_achievementcredential_schema.json";

function schemaPath(): string {
  const fromEnv = process.env.OPEN_BADGES_SCHEMA;
  if (fromEnv) return fromEnv;
  for (let dir = resolve(process.cwd()); ; dir = dirname(dir)) {
    const candidate = join(dir, "shared", "schemas", FILE);
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) break;
  }
  throw new Error(`1EdTech's ${FILE} was not found in a shared/schemas folder above ${process.cwd()}; set OPEN_BADGES_SCHEMA to its path`);
}

let validator: ((document: unknown) => string[]) | undefined;

/** The schema's complaints about `document` (empty when it validates), as `<path> <message>` lines. */
export function openBadgesSchemaErrors(document: unknown): string[] {
  if (!validator) {
    const ajv = new Ajv2019({ allErrors: true, strict: false });
    addFormats(ajv);
    const validate = ajv.compile(JSON.parse(readFileSync(schemaPath(), "utf8")) as object);
    validator = (doc) => (validate(doc) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message ?? ""}`));
  }
  return validator(document);
}
