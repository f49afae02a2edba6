/** domain.md §2: a password is 8–256 characters of any kind (else INVALID_PASSWORD). */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 256;

/** Why a new password would be refused, before asking the server; null when it fits the rule. */
export function passwordProblem(password: string): string | null {
  const length = [...password].length;
  if (length < PASSWORD_MIN) return `At least ${PASSWORD_MIN} characters (now ${length}).`;
  if (length > PASSWORD_MAX) return `At most ${PASSWORD_MAX} characters (now ${length}).`;
  return null;
}

const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';

/** A random password for a new user or a reset, shown once: 20 characters, no look-alikes (0/O, 1/l/I). */
export function generatePassword(random: (count: number) => Uint8Array = (count) => crypto.getRandomValues(new Uint8Array(count))): string {
  const out: string[] = [];
  // Rejection sampling keeps every character equally likely (no modulo bias).
  const limit = 256 - (256 % ALPHABET.length);
  while (out.length < 20) {
    for (const byte of random(32)) {
      if (byte < limit && out.length < 20) out.push(ALPHABET[byte % ALPHABET.length] as string);
    }
  }
  return out.join('');
}
