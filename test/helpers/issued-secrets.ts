/**
 * Every key, webhook secret and token the suite issues or sends, with its SHA-256 (the hash
 * stored for keys and secrets), appended to PORTOLAN_TEST_SECRETS=<file> one a line for
 * scripts/secrets-in-logs.sh to look for in the suite's logs. Values shorter than MIN_LENGTH are
 * left out: a short made-up key could match unrelated text.
 */
import { hash } from "node:crypto";
import { appendFileSync } from "node:fs";
import { AccountsRepo } from "../../api/accounts/repo.ts";
import { PRODUCTS } from "../../api/shared/products.ts";
import type { Storage } from "../../storage/storage.ts";

const MIN_LENGTH = 16;
/** Values this process has written already: a key is sent with every request a test makes. */
const recorded = new Set<string>();
/** Answer fields that carry a secret to its owner once (a new key, an endpoint's signing secret). */
const SECRET_FIELDS = new Set(["key", "secret", "token"]);
/** What a key (api/accounts/keys.ts) or an endpoint's signing secret (api/webhooks/secrets.ts) looks like in text. */
const PRINTED_SECRET = new RegExp(
  `\\b(?:(?:${PRODUCTS.map((p) => p.keyPrefix).join("|")})_[0-9A-Za-z]{32}|whsec_[0-9a-f]{64})\\b`,
  "g",
);

/**
 * Synchronous, so that a test reading a process's output records what it printed before going on;
 * the hash is the one api/shared/crypto.ts stores.
 */
export function recordSecrets(...values: Array<string | null | undefined>): void {
  const file = process.env.PORTOLAN_TEST_SECRETS;
  if (!file) return;
  const kept = values.filter(
    (v): v is string => typeof v === "string" && v.length >= MIN_LENGTH && !recorded.has(v),
  );
  if (kept.length === 0) return;
  for (const v of kept) recorded.add(v);
  const hashes = kept.map((v) => hash("sha256", v, "hex"));
  appendFileSync(file, `${[...kept, ...hashes].join("\n")}\n`);
}

/** Records every key and webhook secret a process printed (the CLI's `key create`, `webhooks listen`). */
export function recordPrinted(text: string): void {
  recordSecrets(...(text.match(PRINTED_SECRET) ?? []));
}

/** The credentials a request carries: a bearer key or token, X-Api-Key, the compat api_key. */
export function requestSecrets(request: Request): Array<string | null> {
  const bearer = /^bearer\s+(\S+)/i.exec(request.headers.get("authorization") ?? "")?.[1] ?? null;
  const query = new URL(request.url).searchParams.get("api_key");
  return [bearer, request.headers.get("x-api-key"), query];
}

/** String values of fields named key, secret or token anywhere in an answer body. */
export function answerSecrets(body: unknown, found: string[] = []): string[] {
  if (Array.isArray(body)) for (const item of body) answerSecrets(item, found);
  else if (body && typeof body === "object") {
    for (const [name, value] of Object.entries(body)) {
      if (SECRET_FIELDS.has(name) && typeof value === "string") found.push(value);
      else answerSecrets(value, found);
    }
  }
  return found;
}

/** The repository with each key it creates recorded; every other method as it is. */
export function recordingAccounts(accounts: AccountsRepo): AccountsRepo {
  return new Proxy(accounts, {
    get(target, name) {
      const value = Reflect.get(target, name, target);
      if (name !== "createKey") return typeof value === "function" ? value.bind(target) : value;
      return async (...args: Parameters<AccountsRepo["createKey"]>) => {
        const created = await target.createKey(...args);
        recordSecrets(created.key);
        return created;
      };
    },
  });
}

/** The repository over `storage` as a test creates its own, each key it creates recorded. */
export function testAccounts(storage: Storage): AccountsRepo {
  return recordingAccounts(new AccountsRepo(storage));
}

/** The keys, secrets and tokens an exchange carried, either way. */
export async function recordExchange(request: Request, response: Response): Promise<void> {
  // JSON answers only, as the answer check reads them (a stream is left to the test); a HEAD
  // answer says JSON and has no body.
  const json = response.headers.get("content-type")?.split(";")[0]?.trim() === "application/json";
  const body: unknown = json
    ? await response
        .clone()
        .json()
        .catch(() => null)
    : null;
  recordSecrets(...requestSecrets(request), ...answerSecrets(body));
}

/** `fetch` over a real socket to a server a test started, the exchange's secrets recorded. */
export async function recordingFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const request = new Request(input, init);
  const response = await fetch(request);
  await recordExchange(request, response);
  return response;
}
