import { createHash } from 'node:crypto';
import { canonicalJson } from '../../../contracts/index.ts';

/** SHA-256 hex of the canonical JSON of a value: the row hash and schema hash of domain.md §5.3. */
export function jsonHash(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex');
}
