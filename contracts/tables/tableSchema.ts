/** The table JSON Schema subset of spec domain.md §5, as stored and returned by the APIs. */

/** The five system refs of domain.md §5.3: stored as `""`, filled on every read. */
export const SYSTEM_REFS = {
  rowId: 'urn:jsonschema:io:strata:row-id-schema:1.0.0',
  rowCreatedAt: 'urn:jsonschema:io:strata:row-created-at-schema:1.0.0',
  rowUpdatedAt: 'urn:jsonschema:io:strata:row-updated-at-schema:1.0.0',
  rowHash: 'urn:jsonschema:io:strata:row-hash-schema:1.0.0',
  rowSchemaHash: 'urn:jsonschema:io:strata:row-schema-hash-schema:1.0.0',
} as const;

export type SystemRefUrn = (typeof SYSTEM_REFS)[keyof typeof SYSTEM_REFS];

export const SYSTEM_REF_URNS: readonly SystemRefUrn[] = Object.values(SYSTEM_REFS);

export const STRING_FORMATS = ['date-time', 'date', 'time', 'email', 'regex'] as const;
export type StringFormat = (typeof STRING_FORMATS)[number];

export const CONTENT_MEDIA_TYPES = [
  'text/plain',
  'text/markdown',
  'text/html',
  'application/json',
  'application/schema+json',
  'application/yaml',
] as const;
export type ContentMediaType = (typeof CONTENT_MEDIA_TYPES)[number];

/** Limits of domain.md §5.1 rule 8 (operations.md §7). */
export const MAX_SCHEMA_DEPTH = 16;
export const MAX_SCHEMA_NODES = 1000;
export const MAX_SCHEMA_BYTES = 256 * 1024;

export function isSystemRefUrn(value: unknown): value is SystemRefUrn {
  return typeof value === 'string' && (SYSTEM_REF_URNS as readonly string[]).includes(value);
}

export function isStringFormat(value: unknown): value is StringFormat {
  return typeof value === 'string' && (STRING_FORMATS as readonly string[]).includes(value);
}

export function isContentMediaType(value: unknown): value is ContentMediaType {
  return typeof value === 'string' && (CONTENT_MEDIA_TYPES as readonly string[]).includes(value);
}

export type SchemaAnnotations = {
  readonly title?: string;
  readonly description?: string;
  readonly deprecated?: boolean;
};

/** `x-unique` / `x-index` of domain.md §5.5: on string, number and integer property nodes outside arrays. */
export type IndexKeywords = {
  readonly 'x-unique'?: boolean;
  readonly 'x-index'?: boolean;
};

/** At most this many indexed fields (unique ones included) per table (domain.md §5.5). */
export const MAX_INDEXED_FIELDS = 10;

export type StringSchema = SchemaAnnotations &
  IndexKeywords & {
    readonly type: 'string';
    readonly default: string;
    readonly readOnly?: boolean;
    readonly minLength?: number;
    readonly maxLength?: number;
    readonly pattern?: string;
    readonly enum?: readonly string[];
    readonly format?: StringFormat;
    readonly contentMediaType?: ContentMediaType;
    readonly foreignKey?: string;
  };

export type NumberSchema = SchemaAnnotations &
  IndexKeywords & {
    readonly type: 'number';
    readonly default: number;
    readonly readOnly?: boolean;
    readonly minimum?: number;
    readonly maximum?: number;
  };

/** An integer node: values (and bounds) are safe integers. */
export type IntegerSchema = SchemaAnnotations &
  IndexKeywords & {
    readonly type: 'integer';
    readonly default: number;
    readonly readOnly?: boolean;
    readonly minimum?: number;
    readonly maximum?: number;
  };

export type BooleanSchema = SchemaAnnotations & {
  readonly 'x-index'?: boolean;
  readonly type: 'boolean';
  readonly default: boolean;
  readonly readOnly?: boolean;
};

export type ObjectSchema = SchemaAnnotations & {
  readonly type: 'object';
  readonly properties: Readonly<Record<string, PropertySchema>>;
  readonly additionalProperties: false;
  readonly required: readonly string[];
};

export type ArraySchema = SchemaAnnotations & {
  readonly type: 'array';
  readonly items: ItemSchema;
  readonly minItems?: number;
  readonly maxItems?: number;
};

export type SystemRefSchema = SchemaAnnotations & {
  readonly $ref: SystemRefUrn;
};

/** A node allowed as array `items` (anything but a system ref). */
export type ItemSchema = StringSchema | NumberSchema | IntegerSchema | BooleanSchema | ObjectSchema | ArraySchema;
/** A node allowed as an object property. */
export type PropertySchema = ItemSchema | SystemRefSchema;
/** A table schema: its root is always an object node. */
export type TableSchema = ObjectSchema;
