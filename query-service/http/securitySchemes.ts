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
