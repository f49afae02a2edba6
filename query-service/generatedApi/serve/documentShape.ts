import { GraphQLError, Lexer, OverlappingFieldsCanBeMergedRule, Source, TokenKind, ValuesOfCorrectTypeRule, type ValidationRule } from 'graphql';

const LITERALS: ReadonlySet<string> = new Set([TokenKind.STRING, TokenKind.BLOCK_STRING, TokenKind.INT, TokenKind.FLOAT]);

/**
 * A query text's tokens with the values of its string and number literals left out (their kinds kept; comments and
 * whitespace dropped): texts of one shape differ only in those values, so they parse alike and every validation rule
 * that does not look at literal values judges them alike. Null when the text does not lex (parsing reports it).
 */
export function documentShapeOf(text: string): string | null {
  const lexer = new Lexer(new Source(text));
  const parts: string[] = [];
  try {
    for (let token = lexer.advance(); token.kind !== TokenKind.EOF; token = lexer.advance()) {
      parts.push(LITERALS.has(token.kind) || token.value === undefined ? token.kind : `${token.kind}${token.value}`);
    }
  } catch (err) {
    if (err instanceof GraphQLError) return null;
    throw err;
  }
  return parts.join(' ');
}

/**
 * The validation rules whose verdict depends on literal values: a literal of the wrong type or out of range
 * (ValuesOfCorrectType, with the scalars' parseLiteral), fields of one response name with different arguments
 * (OverlappingFieldsCanBeMerged), and the cost limit (a literal `first`) — `queryLimitsRule` of the schema, given
 * by the caller. A text whose shape passed every rule before needs only these.
 */
export function literalRules(limits: ValidationRule): readonly ValidationRule[] {
  return [ValuesOfCorrectTypeRule, OverlappingFieldsCanBeMergedRule, limits];
}
