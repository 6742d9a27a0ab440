/**
 * Decodes an untrusted request body into a request schema. Unknown keys are rejected and every
 * problem is reported as an `invalid_request` detail `{ expected, code, path, message }`.
 * Used by both edges (HTTP and MCP), so the two report bad input identically.
 *
 * What is echoed back is bounded: a value is previewed (its kind, size and a short prefix), never
 * formatted whole, so neither a 64 KiB string nor a value nested thousands of levels deep (which would
 * overflow the stack of a recursive formatter) can blow up the answer or the process.
 */
import { Array as Arr, Effect, ParseResult, Schema, SchemaAST } from "effect"
import { InvalidRequest, Issue } from "./Errors.js"

type Path = ReadonlyArray<string | number>

/** Characters of an offending string (or path key) quoted back; the rest is only counted. */
const ECHO_CHARS = 32
/** Details listed at most; the message says how many problems there were in all. */
export const MAX_DETAILS = 20

export const clip = (text: string, max = ECHO_CHARS): string =>
  text.length <= max ? text : `${text.slice(0, max)}… (${text.length} characters)`

/** A bounded, non-recursive description of an untrusted value. */
export const preview = (actual: unknown): string => {
  if (typeof actual === "string") return JSON.stringify(clip(actual))
  if (Array.isArray(actual)) return `an array of ${actual.length} item${actual.length === 1 ? "" : "s"}`
  if (actual === null) return "null"
  if (actual === undefined) return "nothing"
  if (typeof actual === "object") return "an object"
  return clip(String(actual))
}

const annotatedMessage = (ast: SchemaAST.AST, issue: ParseResult.ParseIssue): string | undefined => {
  const annotation = ast.annotations[SchemaAST.MessageAnnotationId]
  if (typeof annotation !== "function") return undefined
  const made: unknown = annotation(issue)
  if (typeof made === "string") return made
  if (typeof made === "object" && made !== null && "message" in made && typeof made.message === "string") {
    return made.message
  }
  return undefined
}

const leafMessage = (ast: SchemaAST.AST, issue: ParseResult.ParseIssue, actual: unknown): string =>
  `${annotatedMessage(ast, issue) ?? `expected ${describe(ast)}`}, got ${preview(actual)}`

const describe = (ast: SchemaAST.AST): string => {
  const description = ast.annotations[SchemaAST.DescriptionAnnotationId]
  if (typeof description === "string") return description
  return SchemaAST.isTypeLiteral(ast) ? "a JSON object" : String(ast)
}

// Keys come from the request (an unknown key can be as long as the body): clipped like values.
const segments = (path: ParseResult.Pointer["path"]): Path =>
  (Array.isArray(path) ? path : [path]).map((key) => (typeof key === "number" ? key : clip(String(key), 64)))

// Issue and InvalidRequest have plain typed fields (no refinements), so constructing them unchecked
// loses nothing; checking would cost a schema walk per item on every rejected request.
const uncheckedIssue = (fields: ConstructorParameters<typeof Issue>[0]) => new Issue(fields, true)

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
        : [
          uncheckedIssue({
            expected: describe(issue.ast),
            code: "invalid_value",
            path,
            message: leafMessage(issue.ast, issue, issue.actual)
          })
        ]
    case "Missing":
      return [uncheckedIssue({ expected: describe(issue.ast.type), code: "missing", path, message: "is required" })]
    case "Unexpected":
      return [
        uncheckedIssue({ expected: "no such key", code: "unrecognized_key", path, message: "is not a known field" })
      ]
    case "Type":
      // An optional field is a union with `undefined`; that branch failing is never the useful complaint.
      if (SchemaAST.isUndefinedKeyword(issue.ast)) return []
      return [
        uncheckedIssue({
          expected: describe(issue.ast),
          code: "invalid_type",
          path,
          message: SchemaAST.isTypeLiteral(issue.ast)
            ? "expected a JSON object"
            : leafMessage(issue.ast, issue, issue.actual)
        })
      ]
    case "Forbidden":
      return [
        uncheckedIssue({
          expected: describe(issue.ast),
          code: "invalid_value",
          path,
          message: leafMessage(issue.ast, issue, issue.actual)
        })
      ]
  }
}

export const invalidRequest = (message: string, details: ReadonlyArray<Issue>, hint?: string) =>
  new InvalidRequest({ message, details, ...(hint === undefined ? {} : { hint }) }, true)

export const decodeRequest = <A, I>(schema: Schema.Schema<A, I>) => {
  const decode = Schema.decodeUnknown(schema, { errors: "all", onExcessProperty: "error" })
  return (input: unknown): Effect.Effect<A, InvalidRequest> =>
    decode(input).pipe(
      Effect.mapError((error) => {
        const all = issuesOf(error.issue, [])
        const first = all[0]
        const where = first === undefined || first.path.length === 0 ? "body" : clip(first.path.join("."), 128)
        const more = all.length > MAX_DETAILS ? ` (${all.length} problems; the first ${MAX_DETAILS} are listed)` : ""
        return invalidRequest(
          `invalid request: ${where} ${first?.message ?? "is invalid"}${more}`,
          all.slice(0, MAX_DETAILS)
        )
      })
    )
}
