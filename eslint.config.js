// The browser code's check (`make test`): ESLint's recommended rules on
// static/js, as ES modules in a browser; the tests run under node.
import js from "@eslint/js";
import globals from "globals";

export default [
  js.configs.recommended,
  {
    files: ["static/js/**/*.js"],
    languageOptions: {
      ecmaVersion: 2024,
      sourceType: "module",
      globals: { ...globals.browser },
    },
  },
  {
    files: ["static/js/tests/**/*.js"],
    languageOptions: { globals: { ...globals.node } },
  },
];
