/**
 * Decodes an untrusted request body into a request schema. Unknown keys are rejected and every
 * problem is reported as an `invalid_request` detail `{ expected, code, path, message }`.
 * Used by both edges (HTTP and MCP), so the two report bad input identically.
 */
import { Array as Arr, Effect, ParseResult, Schema, SchemaAST } from "effect"
import { InvalidRequest, Issue } from "./Errors.js"

type Path = ReadonlyArray<string | number>

const leafMessage = (issue: ParseResult.ParseIssue): string =>
  ParseResult.ArrayFormatter.formatIssueSync(issue)[0]?.message ?? "invalid value"

const describe = (ast: SchemaAST.AST): string => {
  const description = ast.annotations[SchemaAST.DescriptionAnnotationId]
  if (typeof description === "string") return description
  return SchemaAST.isTypeLiteral(ast) ? "a JSON object" : String(ast)
}

const segments = (path: ParseResult.Pointer["path"]): Path =>
  (Array.isArray(path) ? path : [path]).map((key) => (typeof key === "number" ? key : String(key)))

const issuesOf = (issue: ParseResult.ParseIssue, path: Path): ReadonlyArray<Issue> => {
  switch (issue._tag) {
    case "Pointer":
      return issuesOf(issue.issue, [...path, ...segments(issue.path)])
    case "Composite":
      return Arr.flatMap(Arr.ensure(issue.issues), (inner) => issuesOf(inner, path))
    case "Transformation":
      return issuesOf(issue.issue, path)
    case "Refinement":
      return issue.kind === "From"
        ? issuesOf(issue.issue, path)
        : [new Issue({ expected: describe(issue.ast), code: "invalid_value", path, message: leafMessage(issue) })]
    case "Missing":
      return [new Issue({ expected: describe(issue.ast.type), code: "missing", path, message: "is required" })]
    case "Unexpected":
      return [new Issue({ expected: "no such key", code: "unrecognized_key", path, message: "is not a known field" })]
    case "Type":
      // An optional field is a union with `undefined`; that branch failing is never the useful complaint.
      if (SchemaAST.isUndefinedKeyword(issue.ast)) return []
      return [
        new Issue({
          expected: describe(issue.ast),
          code: "invalid_type",
          path,
          message: SchemaAST.isTypeLiteral(issue.ast) ? "expected a JSON object" : leafMessage(issue)
        })
      ]
    case "Forbidden":
      return [new Issue({ expected: describe(issue.ast), code: "invalid_value", path, message: leafMessage(issue) })]
  }
}

export const invalidRequest = (message: string, details: ReadonlyArray<Issue>, hint?: string) =>
  new InvalidRequest({ message, details, ...(hint === undefined ? {} : { hint }) })

export const decodeRequest = <A, I>(schema: Schema.Schema<A, I>) => {
  const decode = Schema.decodeUnknown(schema, { errors: "all", onExcessProperty: "error" })
  return (input: unknown): Effect.Effect<A, InvalidRequest> =>
    decode(input).pipe(
      Effect.mapError((error) => {
        const details = issuesOf(error.issue, [])
        const first = details[0]
        const where = first === undefined || first.path.length === 0 ? "body" : first.path.join(".")
        return invalidRequest(`invalid request: ${where} ${first?.message ?? "is invalid"}`, details)
      })
    )
}
