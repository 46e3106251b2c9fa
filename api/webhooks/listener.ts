/**
 * The receiver of `portolan webhooks listen`: HTTPS on loopback with a throwaway certificate, each
 * delivery verified with the endpoint's secret and reported (event, delivery id, whether the
 * signature holds, the body as sent). A good one answers 204; a bad signature 400, so the
 * dispatcher records the failure as a real receiver would.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { WEBHOOK_PRODUCTS, type WebhookProduct } from "./catalogue.ts";
import { makeCertificates } from "./local-certificates.ts";
import { verify } from "./verify.ts";

export interface Delivery {
  event: string | null;
  id: string | null;
  signatureOk: boolean;
  body: string;
}

export interface Listener {
  /** https://127.0.0.1:<port>/ */
  url: string;
  /** PEM of the CA that signed the receiver's certificate: the endpoint's only trust anchor. */
  ca: string;
  close(): Promise<void>;
}

export interface ListenOptions {
  product: WebhookProduct;
  /** 0: any free port. */
  port: number;
  /** The endpoint's whsec_ secret: deliveries are verified with it. */
  secret: string;
  report: (d: Delivery) => void;
}

/** The certificates as PEM text; their files (the CA's key among them) are gone once read. */
function throwawayPems(): { ca: string; cert: string; key: string } {
  const dir = mkdtempSync(join(tmpdir(), "portolan-listen-"));
  try {
    const files = makeCertificates(dir, ["127.0.0.1", "localhost"]);
    const read = (path: string) => readFileSync(path, "utf8");
    return { ca: read(files.ca), cert: read(files.cert), key: read(files.key) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function startListener(o: ListenOptions): Listener {
  const { ca, cert, key } = throwawayPems();
  const header = (name: string) => `x-${WEBHOOK_PRODUCTS[o.product].tag.toLowerCase()}-${name}`;
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: o.port,
    tls: { cert, key },
    async fetch(req) {
      if (req.method !== "POST") return new Response("POST deliveries here\n", { status: 405 });
      const body = await req.text();
      const signatureOk = await verify(body, req.headers.get(header("signature")), o.secret);
      const [event, id] = [req.headers.get(header("event")), req.headers.get(header("delivery"))];
      o.report({ event, id, signatureOk, body });
      return new Response(signatureOk ? null : "bad signature\n", { status: signatureOk ? 204 : 400 });
    },
  });
  return { url: `https://127.0.0.1:${server.port}/`, ca, close: () => server.stop(true) };
}
