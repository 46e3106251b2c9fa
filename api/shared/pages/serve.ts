/**
 * Web pages a product serves itself (docs/maps.md): a few static files under one base path, read
 * once, with a Content-Security-Policy that allows only the page's own origin. The pages are plain
 * JavaScript modules (no framework, no build step); the basemap is world-atlas land topology.
 */
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { Elysia } from "elysia";
import type { ErrorStyle } from "../envelopes.ts";
import { ApiError } from "../errors.ts";
import { EXTRA_QUERY_IGNORED } from "../openapi/document.ts";
import { neverAnswers } from "../openapi/responses.ts";
import type { Access } from "../plugins/access.ts";

/**
 * Scripts, styles, images, fetches and forms: this origin only; no inline script or style, no
 * plugins, no framing. The key the page holds can therefore only ever be sent to its own host.
 */
export const PAGE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
  "object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'";

const SECURITY_HEADERS = {
  "content-security-policy": PAGE_CSP,
  "x-content-type-options": "nosniff",
  // Page URLs carry the form's query (never the key); nothing leaks to other sites anyway.
  "referrer-policy": "no-referrer",
};

const pageHeader = (description: string, value: string) => ({
  description,
  required: true,
  schema: { type: "string" as const, enum: [value] },
});

/** SECURITY_HEADERS as the page's operation documents them. */
const PAGE_HEADERS = {
  "Content-Security-Policy": pageHeader("This origin only; no framing", PAGE_CSP),
  "X-Content-Type-Options": pageHeader("No type sniffing", "nosniff"),
  "Referrer-Policy": pageHeader("No referrer to other sites", "no-referrer"),
};

const TYPES: Record<string, string> = {
  html: "text/html; charset=utf-8",
  js: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
  json: "application/json",
  svg: "image/svg+xml",
};

export type PageFile = {
  /** Name under the base path ("app.js"); "" is the page itself (GET {base}). */
  name: string;
  /** A missing optional file (or a failed `read`) answers 404 instead of failing the page. */
  optional?: boolean;
} & (
  | {
      /** Absolute path on disk. */
      path: string;
    }
  | {
      /** Bytes made on first request from what the product already loads (build artifacts). */
      read: () => Promise<Uint8Array>;
    }
);

const here = (name: string) => fileURLToPath(new URL(`./${name}`, import.meta.url));

/** d3-zoom and what it needs, each before its dependants: the UMD builds set globalThis.d3. */
const D3_MODULES = [
  "d3-dispatch",
  "d3-selection",
  "d3-color",
  "d3-interpolate",
  "d3-ease",
  "d3-timer",
  "d3-transition",
  "d3-drag",
  "d3-zoom",
];

/** The d3 UMD builds joined into one script (their packages export no dist path: found by src). */
async function d3Zoom(): Promise<Uint8Array> {
  const require = createRequire(import.meta.url);
  const dist = (name: string) => join(dirname(require.resolve(name)), "..", "dist", `${name}.min.js`);
  const parts = await Promise.all(D3_MODULES.map((name) => readFile(dist(name), "utf8")));
  return new TextEncoder().encode(parts.join(";\n"));
}

/** The files every page shares: the map drawing modules and d3-zoom, the key holder, the stylesheet, the basemap. */
export function sharedPageFiles(): PageFile[] {
  return [
    { name: "worldmap.js", path: here("worldmap.js") },
    { name: "map-moves.js", path: here("map-moves.js") },
    { name: "d3-zoom.js", read: d3Zoom },
    { name: "map-labels.js", path: here("map-labels.js") },
    { name: "session-key.js", path: here("session-key.js") },
    { name: "dom.js", path: here("dom.js") },
    { name: "pages.css", path: here("pages.css") },
    { name: "icon.svg", path: here("icon.svg") },
    // 1:50m land (545 kB, 174 kB gzipped): coastlines hold up when the map zooms onto a strait.
    { name: "land.json", path: createRequire(import.meta.url).resolve("world-atlas/land-50m.json") },
  ];
}

interface Loaded {
  body: Uint8Array<ArrayBuffer>;
  gzip: Uint8Array<ArrayBuffer>;
  etag: string;
  type: string;
}

export interface PageSite {
  /** Access rule for the product app: the page and its files are open and not rate limited. */
  access(path: string): Access | undefined;
  routes: Elysia;
}

/**
 * Serves `files` under `base`. Files are read on first request and kept in memory (the basemap is
 * the largest at half a megabyte); ETag and gzip keep repeat and phone loads small. Open and
 * unlimited like /healthz: the bytes are static and cost nothing to send again.
 */
export function pageSite(opts: {
  base: string;
  title: string;
  errors: ErrorStyle;
  files: PageFile[];
}): PageSite {
  const { base, errors } = opts;
  const byName = new Map(opts.files.map((f) => [f.name, f]));
  const cache = new Map<string, Promise<Loaded | null>>();
  const load = (file: PageFile): Promise<Loaded | null> => {
    let hit = cache.get(file.name);
    if (!hit) {
      const source = "path" in file ? file.path : file.name;
      hit = ("path" in file ? readFile(file.path) : file.read()).then(
        (buf) => {
          const body = Uint8Array.from(buf);
          const ext = source.slice(source.lastIndexOf(".") + 1);
          return {
            body,
            gzip: Uint8Array.from(gzipSync(body)),
            etag: `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`,
            type: TYPES[ext === "geojson" ? "json" : ext] ?? "application/octet-stream",
          };
        },
        (err) => {
          if (file.optional) return null;
          throw err;
        },
      );
      cache.set(file.name, hit);
    }
    return hit;
  };
  const serve = async (request: Request, name: string): Promise<Response> => {
    const file = byName.get(name);
    const loaded = file ? await load(file) : null;
    if (!loaded) throw new ApiError("notFound", `No page file ${base}/${name}.`);
    const headers: Record<string, string> = {
      ...SECURITY_HEADERS,
      "content-type": loaded.type,
      etag: loaded.etag,
      // Revalidate every time: a deploy shows at once, and an unchanged file costs a 304.
      "cache-control": "no-cache",
      vary: "accept-encoding",
    };
    if (request.headers.get("if-none-match") === loaded.etag)
      return new Response(null, { status: 304, headers });
    const gzip = /\bgzip\b/.test(request.headers.get("accept-encoding") ?? "");
    if (gzip) headers["content-encoding"] = "gzip";
    return new Response(gzip ? loaded.gzip : loaded.body, { status: 200, headers });
  };
  const routes = new Elysia({ name: `pages${base.replaceAll("/", "-")}` })
    .get(base, ({ request }) => serve(request, ""), {
      detail: {
        summary: `${opts.title} (HTML page for people; asks for the key)`,
        security: [],
        // Links to a page for people carry whatever their sender adds (campaign tags, say).
        ...EXTRA_QUERY_IGNORED,
        // Static bytes held in memory: nothing behind the page can be away.
        ...neverAnswers(503),
        responses: {
          200: {
            description: "The page",
            headers: PAGE_HEADERS,
            content: { "text/html": { schema: { type: "string" } } },
          },
        },
      },
    })
    .get(`${base}/:file`, ({ request, params }) => serve(request, params.file), { detail: { hide: true } });
  return {
    access: (path) =>
      path === base || path.startsWith(`${base}/`) ? { auth: "none", limited: false, errors } : undefined,
    routes,
  };
}
