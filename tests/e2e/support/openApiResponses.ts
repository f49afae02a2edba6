import assert from 'node:assert/strict';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import type { Reply } from './systemHarness.ts';

const escape = (token: string) => token.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * Checks real responses against the served OpenAPI document: the response schema of (method, path, status) must
 * accept the body, so the document describes what the API actually answers.
 */
export function createOpenApiChecker(document: Record<string, unknown>): (method: string, path: string, reply: Reply) => void {
  // strict: false so the OpenAPI keys around the schemas (paths, info, …) are ignored.
  const ajv = new Ajv2020({ strict: false, allErrors: true, formats: fullFormats });
  ajv.addSchema(document, 'urn:strata:openapi');
  const paths = document.paths as Record<string, Record<string, { responses: Record<string, { $ref?: string }> }>>;
  return (method, path, reply) => {
    const operation = paths[path]?.[method.toLowerCase()];
    assert.ok(operation, `${method} ${path} is documented`);
    const response = operation.responses[String(reply.status)];
    assert.ok(response, `${method} ${path} documents status ${reply.status}`);
    const pointer = response.$ref
      ? `${response.$ref.slice(1)}/content/application~1json/schema`
      : `/paths/${escape(path)}/${method.toLowerCase()}/responses/${reply.status}/content/application~1json/schema`;
    const validate = ajv.getSchema(`urn:strata:openapi#${pointer}`);
    assert.ok(validate, `schema at ${pointer}`);
    assert.ok(validate(reply.body), `${method} ${path} ${reply.status}: ${JSON.stringify(validate.errors)} for ${JSON.stringify(reply.body)}`);
  };
}
