/**
 * Every key, webhook secret and token the suite issues or sends, with its SHA-256 (the hash
 * stored for keys and secrets), appended to PORTOLAN_TEST_SECRETS=<file> one a line for
 * scripts/secrets-in-logs.sh to look for in the suite's logs. Values shorter than MIN_LENGTH are
 * left out: a short made-up key could match unrelated text.
 */
import { appendFileSync } from "node:fs";
import type { AccountsRepo } from "../../api/accounts/repo.ts";
import { sha256Hex } from "../../api/shared/crypto.ts";

const MIN_LENGTH = 16;
/** Values this process has written already: a key is sent with every request a test makes. */
const recorded = new Set<string>();
/** Answer fields that carry a secret to its owner once (a new key, an endpoint's signing secret). */
const SECRET_FIELDS = new Set(["key", "secret", "token"]);

export async function recordSecrets(...values: Array<string | null | undefined>): Promise<void> {
  const file = process.env.PORTOLAN_TEST_SECRETS;
  if (!file) return;
  const kept = values.filter(
    (v): v is string => typeof v === "string" && v.length >= MIN_LENGTH && !recorded.has(v),
  );
  if (kept.length === 0) return;
  for (const v of kept) recorded.add(v);
  const hashes = await Promise.all(kept.map(sha256Hex));
  appendFileSync(file, `${[...kept, ...hashes].join("\n")}\n`);
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
        await recordSecrets(created.key);
        return created;
      };
    },
  });
}
