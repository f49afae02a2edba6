/**
 * What every OpenAPI 3.1.0 document of Strata shares, the system REST API's (systemApi/rest/openapi.ts) and each
 * generated endpoint's (generatedApi/rest/buildOpenApi.ts): the document's frame, schema references, JSON content,
 * error responses and the security schemes.
 */

/** A JSON Schema (OpenAPI 3.1 dialect) as plain JSON. */
export type JsonSchema = { readonly [key: string]: unknown };

/** An OpenAPI 3.1.0 document as plain JSON. */
export type OpenApiDocument = { readonly openapi: '3.1.0' } & Readonly<Record<string, unknown>>;

export const componentRef = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

/** The `content` of a JSON request body, response or parameter; `example` is what Swagger UI's "Try it out" sends. */
export const jsonContent = (schema: JsonSchema, example?: unknown) => ({
  'application/json': example === undefined ? { schema } : { schema, example },
});

/** An error response of `components.responses`: its description and the document's `Error` schema. */
export const errorResponse = (description: string) => ({ description, content: jsonContent(componentRef('Error')) });

/**
 * The credentials authenticate.ts accepts, as OpenAPI security schemes (generated-api.md §8.3): identical in every
 * generated document and in the system REST document.
 */
export const securitySchemes = {
  bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT or svc_ API key' },
  apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-Api-Key' },
  apiKeyQuery: { type: 'apiKey', in: 'query', name: 'api_key' },
  cookieAuth: { type: 'apiKey', in: 'cookie', name: 'svc_at' },
} as const;

/** The four credential alternatives (top-level `security`). */
export const securityRequirements: readonly Record<string, readonly string[]>[] = Object.keys(securitySchemes).map((name) => ({ [name]: [] }));

export type OpenApiParts = {
  readonly info: Readonly<Record<string, unknown>>;
  readonly servers: readonly unknown[];
  readonly tags: readonly unknown[];
  readonly paths: Readonly<Record<string, unknown>>;
  readonly schemas: Readonly<Record<string, JsonSchema>>;
  readonly responses: Readonly<Record<string, unknown>>;
  /** `components.headers`, when the document has any. */
  readonly headers?: Readonly<Record<string, unknown>>;
};

/** The document: any credential by default (`security`), the shared security schemes among its components. */
export function openApiDocument(parts: OpenApiParts): OpenApiDocument {
  const components: Record<string, unknown> = { schemas: parts.schemas, responses: parts.responses };
  if (parts.headers !== undefined) components.headers = parts.headers;
  components.securitySchemes = securitySchemes;
  return {
    openapi: '3.1.0',
    info: parts.info,
    servers: parts.servers,
    tags: parts.tags,
    security: securityRequirements,
    paths: parts.paths,
    components,
  };
}
