import { fullFormats } from 'ajv-formats/dist/formats.js';
import { STRING_FORMATS, type StringFormat } from '../../../contracts/index.ts';

export type FormatChecker = (value: string) => boolean;

function toChecker(format: unknown): FormatChecker {
  if (format instanceof RegExp) return (value) => format.test(value);
  if (typeof format === 'function') return (value) => Boolean((format as (v: string) => unknown)(value));
  if (typeof format === 'object' && format !== null && 'validate' in format) return toChecker(format.validate);
  return () => true;
}

/**
 * The five string formats of domain.md §5.1 (ajv-formats "full" mode). Each accepts `""` as "not set"
 * (domain.md §5.1 rule 5), so schema defaults and row values share one definition.
 */
export function createFormatCheckers(): Readonly<Record<StringFormat, FormatChecker>> {
  const out = {} as Record<StringFormat, FormatChecker>;
  for (const name of STRING_FORMATS) {
    const check = toChecker(fullFormats[name]);
    out[name] = (value) => value === '' || check(value);
  }
  return out;
}
