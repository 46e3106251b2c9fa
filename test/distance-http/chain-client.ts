/**
 * The distance API's route chain as the spec describes it, for the chain tests over HTTP (road,
 * rail, air): a platform on the real build, a keyed GET, and the chain's shape.
 */
import { join } from "node:path";
import { bearer, makePlatform, type TestPlatform } from "../helpers/platform.ts";

export async function chainClient(name: string) {
  const p: TestPlatform = await makePlatform({ buildDir: join(import.meta.dir, "../../data/build") });
  const org = await p.accounts.createOrg(name, { paid: true, rateLimit: 100_000 });
  const key = (await p.accounts.createKey(org.id, "distance")).key;
  const get = async (path: string) => {
    const res = await p.call("distance", path, bearer(key));
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  return { p, get };
}

/** A resolved point as chains show it (spec: kind, name, locode or iata, country_code, lat, lng). */
export type ChainPoint = {
  kind: string;
  name: string | null;
  locode?: string | null;
  iata?: string | null;
  lat: number;
  lng: number;
};

/** A transfer as chains show it. */
export type ChainTransfer = {
  at: ChainPoint;
  from_mode: string | null;
  to_mode: string | null;
  hours: number;
};

export {
  type ChainShape,
  checkChain,
  type Distance,
  type Duration,
  type Summary,
} from "../support/chain.ts";
