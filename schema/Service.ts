/**
 * The service's name and version as every answer that states them (health, OpenAPI, registration) does.
 */
export const SERVICE_NAME = "Trade checkpoint"

export const SERVICE_VERSION = "0.1.0"

/** Where the service serves its image (the registration file's `image`). */
export const IMAGE_PATH = "/favicon.svg"
