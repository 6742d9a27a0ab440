/**
 * The service's image, served at `IMAGE_PATH` for the registration file's `image` (registries and agent
 * directories show it beside the name). A small SVG kept in the source: a checkpoint barrier over a
 * check mark in USDC blue. Mounted beside the HttpApi routes, inside the edge middleware.
 */
import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { IMAGE_PATH } from "../../schema/Service.js"

const SVG = [
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="64" height="64">`,
  `<title>Trade checkpoint</title>`,
  `<rect width="64" height="64" rx="14" fill="#2775ca"/>`,
  `<rect x="10" y="14" width="44" height="8" rx="4" fill="#ffffff"/>`,
  `<path d="M20 38l8 8 16-16" fill="none" stroke="#ffffff" stroke-width="7" stroke-linecap="round" stroke-linejoin="round"/>`,
  `</svg>`
].join("")

export const ServiceImageRoute = HttpApiBuilder.Router.use((router) =>
  router.get(
    IMAGE_PATH,
    HttpServerResponse.text(SVG, {
      contentType: "image/svg+xml",
      headers: { "cache-control": "public, max-age=86400" }
    })
  )
)
