// The Effect ecosystem's own setup: typescript-eslint plus @effect/eslint-plugin's dprint formatting rule.
import effect from "@effect/eslint-plugin"
import tseslint from "typescript-eslint"

export default tseslint.config(
  { ignores: ["node_modules/", "dist/", "build/", ".devnet/", ".cache/", "contracts/"] },
  ...tseslint.configs.recommended,
  {
    plugins: { "@effect": effect },
    rules: {
      "@effect/dprint": ["error", {
        config: {
          indentWidth: 2,
          lineWidth: 120,
          semiColons: "asi",
          quoteStyle: "alwaysDouble",
          trailingCommas: "never",
          operatorPosition: "maintain",
          "arrowFunction.useParentheses": "force"
        }
      }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-namespace": "off"
    }
  },
  {
    // The product is typed end to end (issue 18): no `any`, and no `as unknown as` to force one type into
    // another. A value of unknown shape from outside is decoded at its boundary instead.
    files: ["src/**/*.ts", "layers/**/*.ts"],
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "no-restricted-syntax": ["error", {
        selector: "TSAsExpression > TSAsExpression.expression[typeAnnotation.type='TSUnknownKeyword']",
        message: "`as unknown as` forces a type: decode the value at its boundary, or let the types follow"
      }]
    }
  }
)
