// From its module, not the contracts door: view store threads (sqliteReadThread.ts) load this file and nothing else
// of contracts, which keeps their start short.
import { castValue, isCast } from '../../../contracts/views/castValue.ts';
import type { CastResult } from '../../../contracts/views/castValue.ts';

/**
 * The SQL function `strata_cast(cast, value, type)` applies castValue inside queries. `type` is a json_type()
 * result for values inside json fields, or the storage type of a plain column ('boolean' for 0/1 columns).
 */
export function sqlCast(cast: unknown, value: unknown, type: unknown): CastResult {
  if (!isCast(cast) || value === null || value === undefined) return null;
  switch (type) {
    case 'text':
      return castValue(cast, String(value));
    case 'integer':
    case 'real':
      return castValue(cast, Number(value));
    case 'true':
      return castValue(cast, true);
    case 'false':
      return castValue(cast, false);
    case 'boolean':
      return castValue(cast, Number(value) !== 0);
    default:
      // JSON null, objects and arrays cannot be cast.
      return null;
  }
}
