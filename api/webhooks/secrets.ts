/**
 * Endpoint signing secrets: whsec_<64 hex> from 32 random bytes. The clear secret leaves the
 * process once, in the registration response. At rest: its SHA-256 (to identify it) and an
 * AES-256-GCM copy under a configured key (the dispatcher needs the clear secret to sign), bound to
 * the endpoint id as additional data so a ciphertext can't be moved to another row.
 * Web-standard crypto only: this runs in the request path.
 */

import { log } from "../../common/log.ts";
import type { Sealed } from "../../storage/webhooks.ts";
import { sha256Hex, toHex } from "../shared/crypto.ts";
import type { WebhookConfig } from "./config.ts";

export type { Sealed };

interface RingKey {
  id: string;
  key: CryptoKey;
}

export function newSecret(): string {
  return `whsec_${toHex(crypto.getRandomValues(new Uint8Array(32)))}`;
}

export const secretHash = sha256Hex;

const b64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const unb64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
const DEV_KEY_ID = "dev";
let warned = false;

/** The configured keys, current first. Throws on a malformed list, or a missing one in production. */
async function parseKeys(cfg: Pick<WebhookConfig, "keys" | "production">): Promise<RingKey[]> {
  const entries: Array<[string, Uint8Array]> = [];
  if (cfg.keys) {
    for (const part of cfg.keys.split(",")) {
      const at = part.indexOf(":");
      const id = part.slice(0, at).trim();
      let raw: Uint8Array | null = null;
      try {
        raw = unb64(part.slice(at + 1).trim());
      } catch {}
      if (at <= 0 || !raw || raw.length !== 32) {
        throw new Error(
          "PORTOLAN_WEBHOOK_KEYS entries must be id:base64 of 32 bytes (openssl rand -base64 32)",
        );
      }
      entries.push([id, raw]);
    }
  } else {
    if (cfg.production) throw new Error("PORTOLAN_WEBHOOK_KEYS must be set when NODE_ENV=production");
    if (!warned) {
      warned = true;
      log.warn(
        "WARNING: PORTOLAN_WEBHOOK_KEYS is unset; webhook secrets are encrypted with a PUBLIC development key. Set it before storing real secrets.",
      );
    }
    // Deterministic so every process (API, dispatcher, tests) of a dev set-up can decrypt.
    const derived = await crypto.subtle.digest(
      "SHA-256",
      new TextEncoder().encode("portolan-dev-webhook-key"),
    );
    entries.push([DEV_KEY_ID, new Uint8Array(derived)]);
  }
  return Promise.all(
    entries.map(async ([id, raw]) => ({
      id,
      key: await crypto.subtle.importKey("raw", raw as BufferSource, "AES-GCM", false, [
        "encrypt",
        "decrypt",
      ]),
    })),
  );
}

/** Encrypts with the first key; decrypts with whichever key id the blob names (rotation). */
export class SecretBox {
  private constructor(private readonly ring: RingKey[]) {}

  static async create(cfg: Pick<WebhookConfig, "keys" | "production">): Promise<SecretBox> {
    return new SecretBox(await parseKeys(cfg));
  }

  get currentKeyId(): string {
    return this.ring[0]!.id;
  }

  async seal(secret: string, endpointId: string): Promise<Sealed> {
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const { id, key } = this.ring[0]!;
    const ct = new Uint8Array(
      await crypto.subtle.encrypt(
        { name: "AES-GCM", iv, additionalData: new TextEncoder().encode(endpointId) },
        key,
        new TextEncoder().encode(secret),
      ),
    );
    const blob = new Uint8Array(iv.length + ct.length);
    blob.set(iv);
    blob.set(ct, iv.length);
    return { keyId: id, blob: b64(blob) };
  }

  async open(sealed: Sealed, endpointId: string): Promise<string> {
    const ring = this.ring.find((k) => k.id === sealed.keyId);
    if (!ring) throw new Error(`webhook secret key "${sealed.keyId}" is not in PORTOLAN_WEBHOOK_KEYS`);
    const blob = unb64(sealed.blob);
    const clear = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: blob.slice(0, 12), additionalData: new TextEncoder().encode(endpointId) },
      ring.key,
      blob.slice(12),
    );
    return new TextDecoder().decode(clear);
  }
}
