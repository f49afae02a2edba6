import { SYSTEM_REFS, compileTableModel, type PropertySchema, type TableSchema } from '../../contracts/index.ts';
import type { GeneratedTable } from '../generatedApi/naming.ts';

/**
 * A fixture project for the generated-API builders and their golden files: nested objects, arrays of objects,
 * arrays of arrays, FK strings and FK arrays, system refs, awkward table ids, a table without properties, and
 * integers (Int within 32-bit bounds, Float without), bounds, lengths, items, unique and indexed fields.
 */
const text = { type: 'string', default: '' } as const;
const number = { type: 'number', default: 0 } as const;

function object(properties: Readonly<Record<string, PropertySchema>>, annotations: { title?: string; description?: string } = {}): TableSchema {
  return { type: 'object', additionalProperties: false, required: Object.keys(properties), properties, ...annotations };
}

const schemas: readonly (readonly [string, TableSchema])[] = [
  [
    'users',
    object(
      {
        id: { $ref: SYSTEM_REFS.rowId },
        name: { type: 'string', default: '', title: 'Name', description: 'Display name "as shown"' },
        email: { type: 'string', default: '', format: 'email' },
        shipping_address: object({ street: text, city: text, geo: object({ lat: number, lng: number }) }, { description: 'Where parcels go' }),
        profile: object({}),
        updated: { $ref: SYSTEM_REFS.rowUpdatedAt, description: 'Last change' },
      },
      { title: 'Users', description: 'People who write' },
    ),
  ],
  ['categories', object({ name: text, slug: { type: 'string', default: 'x', pattern: '^[a-z]+$' } })],
  [
    'posts',
    object(
      {
        title: { type: 'string', default: '', description: 'Headline' },
        subtitle: { type: 'string', default: '', deprecated: true },
        views: { type: 'number', default: 0, readOnly: true },
        published: { type: 'boolean', default: false },
        author: { type: 'string', default: '', foreignKey: 'users' },
        categories: { type: 'array', items: { type: 'string', default: '', foreignKey: 'categories' } },
        tags: { type: 'array', items: text },
        status: { type: 'string', default: 'draft', enum: ['draft', 'live'] },
        createdAt: { $ref: SYSTEM_REFS.rowCreatedAt },
        hash: { $ref: SYSTEM_REFS.rowHash },
      },
      { description: 'Blog posts' },
    ),
  ],
  [
    'order-items',
    object({
      post: { type: 'string', default: '', foreignKey: 'posts' },
      quantity: number,
      sku: { type: 'string', default: '', minLength: 0, maxLength: 12, 'x-unique': true, description: 'Stock keeping unit' },
      count: { type: 'integer', default: 1, minimum: 1, maximum: 1000, 'x-index': true },
      grams: { type: 'integer', default: 0, minimum: 0 },
      price: { type: 'number', default: 0, minimum: 0, maximum: 1e6 },
      gift: { type: 'boolean', default: false, 'x-index': true },
      options: { type: 'array', items: object({ name: text, value: text }), minItems: 0, maxItems: 5 },
      grid: { type: 'array', items: { type: 'array', items: number } },
    }),
  ],
  ['sheep', object({ name: text, flock: { type: 'array', items: { type: 'array', items: object({ tag: text }) } } })],
  [
    'HTMLPages',
    object({
      body: { type: 'string', default: '', contentMediaType: 'text/html' },
      published_at: { type: 'string', default: '', format: 'date-time' },
      settings: { type: 'string', default: '', foreignKey: 'settings' },
      schemaHash: { $ref: SYSTEM_REFS.rowSchemaHash },
    }),
  ],
  ['settings', object({}, { description: 'No properties: REST only' })],
];

/** The fixture's tables, created one minute apart in the order above. */
export const blogTables: readonly GeneratedTable[] = schemas.map(([id, schema], i) => ({
  id,
  createdAt: `2025-01-01T00:${String(i).padStart(2, '0')}:00.000Z`,
  model: compileTableModel(schema),
}));

/** The raw schema of a fixture table. */
export function blogSchemaOf(tableId: string): TableSchema | undefined {
  return schemas.find(([id]) => id === tableId)?.[1];
}
