const NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;

/**
 * A JSON value written as a GraphQL input literal (`{name: "ci", readOnly: true}`). Used where the spec names an
 * argument's fields but not its input type name, so no variable type has to be guessed. Strings are escaped with
 * JSON rules, which GraphQL string literals share; object keys must be GraphQL names.
 */
export function graphqlLiteral(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error('not a finite number');
    return String(value);
  }
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(graphqlLiteral).join(', ')}]`;
  if (typeof value === 'object') {
    const fields = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .map(([key, v]) => {
        if (!NAME.test(key)) throw new Error(`not a GraphQL name: ${key}`);
        return `${key}: ${graphqlLiteral(v)}`;
      });
    return `{${fields.join(', ')}}`;
  }
  throw new Error(`cannot write ${typeof value} as GraphQL`);
}
