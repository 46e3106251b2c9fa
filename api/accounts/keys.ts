/** API key format: "<product prefix>_<32 base62 chars>" (about 190 random bits). */

import { randomBase62, sha256Hex } from "../shared/crypto.ts";
import { type ProductId, product } from "../shared/products.ts";

const SECRET_LENGTH = 32;
const KEY_SHAPE = /^([a-z]{2})_([0-9A-Za-z]{32})$/;

export interface NewKey {
  key: string;
  hash: string;
  hint: string;
}

export async function mintKey(productId: ProductId): Promise<NewKey> {
  const key = `${product(productId).keyPrefix}_${randomBase62(SECRET_LENGTH)}`;
  return { key, hash: await sha256Hex(key), hint: `${key.slice(0, 6)}…${key.slice(-4)}` };
}

/** Prefix of a well-formed key, or null; malformed keys are refused before any database work. */
export function keyPrefixOf(key: string): string | null {
  return KEY_SHAPE.exec(key)?.[1] ?? null;
}
