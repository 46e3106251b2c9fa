/**
 * `portolan webhooks listen`: a local receiver in one command. It starts an HTTPS receiver on
 * loopback with a throwaway certificate, registers an endpoint for it on one product of an
 * organisation (trusting that certificate for this endpoint alone: see api/webhooks/ssrf.ts,
 * checkLoopback), prints every delivery verified, and removes the endpoint when stopped (Ctrl-C or
 * SIGTERM). The endpoint's id and secret are on the first line, for `POST /v1/webhooks/{id}/test`.
 */
import type { Command } from "commander";
import { timeOrderedId } from "../../common/ids.ts";
import { openStorage } from "../../storage/open.ts";
import type { Storage } from "../../storage/storage.ts";
import { AccountsRepo } from "../accounts/repo.ts";
import { loadConfig } from "../config.ts";
import { WEBHOOK_PRODUCTS, type WebhookProduct } from "../webhooks/catalogue.ts";
import type { WebhookConfig } from "../webhooks/config.ts";
import { type Delivery, type Listener, type ListenOptions, startListener } from "../webhooks/listener.ts";
import { newSecret, SecretBox, secretHash } from "../webhooks/secrets.ts";
import { type Cli, CommandFailed, orgOf, UsageError } from "./context.ts";

interface ListenFlags {
  org: string;
  product: string;
  events?: string;
  port: string;
  json?: boolean;
}

interface Listening {
  product: WebhookProduct;
  /** [] = every event of the product. */
  events: string[];
  port: number;
}

const WEBHOOK_PRODUCT_IDS = Object.keys(WEBHOOK_PRODUCTS);

function checked(o: ListenFlags): Listening {
  const { product } = o;
  if (!WEBHOOK_PRODUCT_IDS.includes(product))
    throw new UsageError(
      `--product: "${product}" has no webhooks (one of ${WEBHOOK_PRODUCT_IDS.join(", ")})`,
    );
  const known = WEBHOOK_PRODUCTS[product as WebhookProduct].events;
  const events = (o.events ?? "")
    .split(",")
    .map((e) => e.trim())
    .filter(Boolean);
  const unknown = events.find((e) => !known.includes(e));
  if (unknown) throw new UsageError(`--events: ${product} has no event "${unknown}" (${known.join(", ")})`);
  const port = Number(o.port);
  if (!/^\d+$/.test(o.port) || port > 65535)
    throw new UsageError(`--port: "${o.port}" is not a port (0 to 65535)`);
  return { product: product as WebhookProduct, events: [...new Set(events)], port };
}

/** A delivery as printed: a JSON line with --json, else a summary line and the body as sent. */
function deliveryLines(d: Delivery, json: boolean): string[] {
  const verdict = d.signatureOk ? "ok" : "INVALID";
  if (!json) return [`${d.event} ${d.id} signature ${verdict}`, d.body];
  let body: unknown = d.body;
  try {
    body = JSON.parse(d.body);
  } catch {}
  return [JSON.stringify({ event: d.event, id: d.id, signature_ok: d.signatureOk, body })];
}

/** Registers the listener's endpoint, as the HTTP route does but with its CA; returns its id. */
async function register(
  storage: Storage,
  cfg: WebhookConfig,
  orgId: string,
  l: Listening & { listener: Listener; secret: string },
): Promise<string> {
  const id = timeOrderedId();
  const box = await SecretBox.create(cfg);
  const done = await storage.webhooks.create(
    {
      id,
      orgId,
      product: l.product,
      url: l.listener.url,
      eventTypes: l.events,
      description: "portolan webhooks listen",
      createdAt: new Date().toISOString(),
      secretHash: await secretHash(l.secret),
      sealed: await box.seal(l.secret, id),
      localCa: l.listener.ca,
    },
    cfg.maxEndpoints,
  );
  if (done.outcome === "limit")
    throw new CommandFailed(`the organisation holds ${done.held} ${l.product} endpoints, the most allowed`);
  return id;
}

/** The started receiver; one that cannot start (no openssl, the port taken) fails the command. */
function receiver(o: ListenOptions): Listener {
  try {
    return startListener(o);
  } catch (err) {
    throw new CommandFailed(`cannot start the receiver: ${(err as Error).message}`);
  }
}

/** Resolves on the first Ctrl-C or SIGTERM. */
const stopped = () =>
  new Promise<void>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });

async function listen(cli: Cli, o: ListenFlags): Promise<void> {
  const l = checked(o);
  const config = loadConfig();
  const storage = await openStorage(config.database);
  try {
    const org = await orgOf(new AccountsRepo(storage), o.org);
    const secret = newSecret();
    const report = (d: Delivery) => {
      for (const line of deliveryLines(d, o.json ?? false)) cli.out(line);
    };
    const listener = receiver({ product: l.product, port: l.port, secret, report });
    try {
      const id = await register(storage, config.webhooks, org.id, { ...l, listener, secret });
      try {
        const events = l.events.length ? l.events.join(",") : "all events";
        cli.out(
          `listening on ${listener.url} for ${l.product} ${events} of ${org.name}: endpoint ${id}, secret ${secret}; Ctrl-C removes it`,
        );
        await stopped();
      } finally {
        await storage.webhooks.delete(org.id, l.product, id);
      }
    } finally {
      await listener.close();
    }
  } finally {
    await storage.close();
  }
}

export function webhooksCommands(program: Command, cli: Cli): void {
  const webhooks = program.command("webhooks").description("webhook endpoints (docs/webhooks.md)");
  webhooks
    .command("listen")
    .description(
      "receives an organisation's deliveries here: a local HTTPS receiver, an endpoint registered for it, each delivery printed verified; Ctrl-C removes the endpoint",
    )
    .requiredOption("--org <org>", "the organisation's id or exact name")
    .requiredOption("--product <product>", `one of ${WEBHOOK_PRODUCT_IDS.join(", ")}`)
    .option("--events <types>", "comma-separated event types (default: every event of the product)")
    .option("--port <port>", "the receiver's port on 127.0.0.1 (0: any free one)", "0")
    .option("--json", "print each delivery as one JSON line {event, id, signature_ok, body}")
    .action((o: ListenFlags) => listen(cli, o));
}
