// ESLint flat config: `npm run lint` (and `npm test`, before the other static checks) fails on any warning.
// Formatting is Prettier's job (`npm run format:check`); eslint-config-prettier turns off the rules that would
// fight it. TypeScript files are linted with type information: the main tree through the project service
// (tsconfig.json), the end-to-end specs through tsconfig.e2e.json, which is the project they are compiled in.
import js from "@eslint/js";
import nextPlugin from "@next/eslint-plugin-next";
import prettierConfig from "eslint-config-prettier";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

const ROOT = import.meta.dirname;

export default tseslint.config(
  {
    ignores: [
      "lib/generated/**",
      ".next/**",
      "node_modules/**",
      "test-results/**",
      "playwright-report/**",
      "data/**",
      "bench-results/**",
      "scratch/**",
      "next-env.d.ts",
    ],
  },
  {
    linterOptions: { reportUnusedDisableDirectives: "error" },
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: ROOT },
    },
  },
  {
    // The end-to-end specs and the Playwright config are left out of tsconfig.json (they run under Playwright,
    // not Next): tsconfig.e2e.json is their project.
    files: ["e2e/**/*.ts", "playwright.config.ts"],
    languageOptions: {
      parserOptions: { projectService: false, project: "./tsconfig.e2e.json", tsconfigRootDir: ROOT },
    },
  },
  {
    // Plain JavaScript (build scripts, configs) is outside every TypeScript project (allowJs is off), so the
    // rules that need type information cannot run there.
    files: ["**/*.{js,mjs,cjs}"],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { ...tseslint.configs.disableTypeChecked.languageOptions, globals: { ...globals.node } },
  },
  {
    files: ["**/*.cjs"],
    languageOptions: { sourceType: "commonjs" },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  {
    files: ["app/**/*.{ts,tsx}", "lib/**/*.{ts,tsx}"],
    ...reactHooks.configs.flat.recommended,
  },
  {
    files: ["app/**/*.{ts,tsx}"],
    ...nextPlugin.configs.recommended,
    rules: {
      ...nextPlugin.configs.recommended.rules,
      ...nextPlugin.configs["core-web-vitals"].rules,
      // Every image here is one this service renders or serves itself at its final size (certificate
      // previews, organization logos, QR codes as data URIs): next/image's optimizer would only decode and
      // re-encode them, and cannot take a data URI.
      "@next/next/no-img-element": "off",
    },
  },
  {
    // Tests read response bodies and fixtures as untyped JSON (`any`) and assert on their shape: the assertions are
    // the check, and a cast per property would add noise, not safety. The `any` rules stay on in production code.
    files: ["e2e/**/*.ts", "**/*.test.{ts,tsx}"],
    rules: {
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-unsafe-return": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-explicit-any": "off",
    },
  },
  {
    // Playwright reads a fixture's dependencies from its destructured first parameter, so a fixture that needs
    // none must be written `async ({}, use) => ...`: the empty pattern is required there.
    files: ["e2e/**/*.ts"],
    rules: { "no-empty-pattern": "off" },
  },
  {
    rules: {
      // `async` on a function without `await` is deliberate here: it implements a Promise-returning contract
      // (a handler, a store, an adapter) and makes any throw a rejection, as callers expect, not a synchronous
      // throw. Dropping it would change behaviour.
      "@typescript-eslint/require-await": "off",
      // Control characters in regular expressions are the point wherever they appear here: the code strips or
      // refuses them in untrusted text (headers, file names, log lines, mail).
      "no-control-regex": "off",
      // Unused names are errors, except the ones a leading underscore marks as deliberately unused (a positional
      // parameter an interface requires, a rest sibling that drops a key from an object).
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
    },
  },
  prettierConfig,
);
