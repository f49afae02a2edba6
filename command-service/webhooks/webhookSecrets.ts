import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/** A fresh signing secret (changes.md §6.1): `whsec_` + base64 of 24 random bytes. */
export function generateWebhookSecret(): { readonly secret: string; readonly prefix: string } {
  const secret = `whsec_${randomBytes(24).toString('base64')}`;
  return { secret, prefix: secret.slice(0, 'whsec_'.length + 4) };
}

export type WebhookSecretBox = {
  /** Encrypts a secret for the log: AES-256-GCM, a fresh IV per secret. */
  seal(secret: string): string;
  /** The secret back; throws when the sealed text was made with another server secret or altered. */
  open(sealed: string): string;
};

const VERSION = 'v1';

/**
 * Signing secrets are stored sealed with a key derived (HKDF-SHA256) from the server secret (JWT_SECRET), so the
 * dispatcher can sign while the log, the views and every API hold only ciphertext. Changing JWT_SECRET makes the
 * stored secrets unusable: rotate each webhook's secret afterwards.
 */
export function createWebhookSecretBox(serverSecret: string): WebhookSecretBox {
  const key = Buffer.from(hkdfSync('sha256', serverSecret, 'strata', 'webhook-signing-secrets', 32));
  return {
    seal(secret) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
      return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
    },
    open(sealed) {
      const [version, text] = sealed.split('.');
      if (version !== VERSION || text === undefined) throw new Error('unknown sealed secret format');
      const bytes = Buffer.from(text, 'base64');
      const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, 12));
      decipher.setAuthTag(bytes.subarray(12, 28));
      return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
    },
  };
}
