// ESLint for the chat page: the recommended rules over the page's ES
// modules (static/*.js, run in the browser), and over this file (Node).
// Run from this directory: npm ci && npx eslint --max-warnings 0 .
import js from "@eslint/js";
import globals from "globals";

export default [
  js.configs.recommended,
  {
    files: ["static/**/*.js"],
    languageOptions: {
      ecmaVersion: "latest",
      sourceType: "module",
      globals: globals.browser,
    },
  },
  {
    files: ["eslint.config.js"],
    languageOptions: { sourceType: "module", globals: globals.node },
  },
];
