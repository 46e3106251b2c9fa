/**
 * The shipment page (GET /track on the ocean host): one tracked reference read twice with the
 * typed key: the lookup record (status, ETA, the vessel's AIS position and its freshness, the
 * milestone timeline) and the compat answer's route_data (the legs between port calls on our sea
 * router, the pin) with its port-local event times. Legs sailed are solid, legs to sail dashed; the
 * leg under way (departed, not arrived) is split at the pin, or solid without a pin on it. Times
 * read in the place's zone (readable.js); a route alert (a missed connection) is shown.
 */
import { failure, h } from "./dom.js";
import { instant, wallClock, words } from "./readable.js";
import { sessionKey } from "./session-key.js";
import { createWorldMap, dLng } from "./worldmap.js";

const $ = (id) => document.getElementById(id);
const form = $("query");
const status = $("status");
const keyOf = sessionKey("ocean", $("key"), $("forget"));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const say = (text, error = false) => {
  status.textContent = text;
  status.classList.toggle("error", error);
};

/** The lookup record; a reference seen for the first time answers 202 while the carrier is asked. */
async function lookup(ref, key) {
  for (let attempt = 0; attempt < 20; attempt++) {
    const res = await fetch(`/v1/containers/lookup/${encodeURIComponent(ref)}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    if (res.status === 202) {
      say("Tracking started: asking the carrier…");
      await sleep(Math.min(5, Number(res.headers.get("retry-after") ?? 3)) * 1000);
      continue;
    }
    if (!res.ok) throw new Error(`${res.status}: ${await failure(res)}`);
    return (await res.json()).data;
  }
  throw new Error("The carrier has not answered yet; try again in a minute.");
}

/** The compat answer with route legs and the AIS block (the compat surface takes its key in the query). */
async function compat(ref, key) {
  const q = new URLSearchParams({ api_key: key, number: ref, route: "true", ais: "true" });
  for (let attempt = 0; attempt < 10; attempt++) {
    const res = await fetch(`/compat/vendor/tracking?${q}`);
    const body = await res.json().catch(() => null);
    if (body?.status === "success") return body.data;
    if (body?.message !== "NO_TRACKING_INFO")
      throw new Error(`${res.status}: ${body?.message ?? "compat failed"}`);
    await sleep(2000);
  }
  throw new Error("No route data yet; try again in a minute.");
}

/** The event at a port: the last of the given codes, actual ones preferred. */
function portEvent(events, locationIds, codes) {
  const at = events.filter((e) => locationIds.has(e.location) && codes.includes(e.event_code));
  return at.filter((e) => e.actual).at(-1) ?? at.at(-1) ?? null;
}

/** Index of the path point nearest `pin` and its distance (degrees, the short way round in longitude). */
function nearest(path, pin) {
  let best = 0;
  let bestD = Infinity;
  path.forEach(([lat, lng], i) => {
    const d = (lat - pin[0]) ** 2 + dLng(lng, pin[1]) ** 2;
    if (d < bestD) [best, bestD] = [i, d];
  });
  return { index: best, degrees: Math.sqrt(bestD) };
}

/** A pin farther than this from the leg under way is not on it (an AIS fix of another voyage): no split. */
const PIN_ON_LEG_DEGREES = 3;

function model(record, data) {
  const locations = data.locations ?? [];
  const idsOf = (locode) => new Set(locations.filter((l) => l.locode === locode).map((l) => l.id));
  const tzOf = (locode) => locations.find((l) => l.locode === locode)?.timezone ?? null;
  const events = (data.containers ?? []).flatMap((c) => c.events ?? []);
  const legs = (data.route_data?.route ?? []).map((leg, i) => {
    const arrived = portEvent(events, idsOf(leg.to.locode), ["ARRI", "DISC"]);
    const departed = portEvent(events, idsOf(leg.from.locode), ["DEPA", "LOAD"]);
    const state = arrived?.actual ? "sailed" : departed?.actual ? "under-way" : "to-sail";
    return { ...leg, index: i, state };
  });
  const ports = [];
  for (const leg of legs) {
    for (const p of [leg.from, leg.to]) {
      if (!ports.some((q) => q.locode === p.locode && q.name === p.name)) ports.push(p);
    }
  }
  const pin = data.route_data?.pin ?? null;
  return { legs, ports, pin, events, idsOf, tzOf, record };
}

const portName = (p) => `${p.name}${p.locode ? ` (${p.locode})` : ""}`;

function scene(m) {
  const lines = [];
  for (const leg of m.legs) {
    const title = `${portName(leg.from)} → ${portName(leg.to)}${leg.vessel ? ` on ${leg.vessel.name}` : ""}`;
    const cls = (state) => `leg leg-${leg.index} ${state}`;
    const near = leg.state === "under-way" && m.pin ? nearest(leg.path, m.pin) : null;
    if (near && near.degrees <= PIN_ON_LEG_DEGREES) {
      const i = near.index;
      lines.push({ points: [...leg.path.slice(0, i + 1), m.pin], cls: cls("sailed"), title });
      lines.push({ points: [m.pin, ...leg.path.slice(i + 1)], cls: cls("to-sail"), title });
    } else {
      const state = { sailed: "sailed", "under-way": "sailed under-way" }[leg.state] ?? "to-sail";
      lines.push({ points: leg.path, cls: cls(state), title });
    }
  }
  const markers = m.ports
    .filter((p) => p.lat !== null && p.lng !== null)
    .map((p) => {
      const visited = m.events.some((e) => e.actual && m.idsOf(p.locode).has(e.location));
      return {
        at: [p.lat, p.lng],
        cls: visited ? "port visited" : "port",
        label: p.name,
        title: portName(p),
      };
    });
  if (m.pin) {
    const pos = m.record.vessel_position;
    const title = pos
      ? `${pos.name ?? "Vessel"}: AIS fix ${instant(pos.position_fix_at)} (${words(pos.position_freshness)})`
      : "Estimated position";
    markers.push({ at: m.pin, cls: "vessel", title, r: 7 });
  }
  return { lines, markers };
}

function renderSummary(m) {
  const r = m.record;
  const pos = r.vessel_position;
  const destination = m.legs.at(-1)?.to.locode;
  const rows = [
    ["Status", words(r.status)],
    ...(r.route_alert ? [["Route alert", h("span", { class: "route-alert" }, words(r.route_alert))]] : []),
    ["Carrier", r.carrier],
    ["From → to", `${r.origin_name} → ${r.destination_name}`],
    ["ETA", instant(r.eta, destination ? m.tzOf(destination) : null)],
    ["Vessel", r.vessel_name ? `${r.vessel_name}${r.vessel_imo ? ` (IMO ${r.vessel_imo})` : ""}` : "–"],
    [
      "AIS position",
      pos
        ? [
            `${pos.lat.toFixed(3)}, ${pos.lng.toFixed(3)}`,
            pos.speed_knots === null ? "" : `, ${pos.speed_knots} kn`,
            pos.heading_deg === null ? "" : `, heading ${pos.heading_deg}°`,
          ].join("")
        : (r.field_provenance?.vessel_position?.evidence ?? "–"),
    ],
    [
      "Position freshness",
      pos
        ? h(
            "span",
            { class: `fresh-${pos.position_freshness}` },
            `${words(pos.position_freshness)}: fix ${instant(pos.position_fix_at)}, ${pos.position_age_hours ?? "?"} h old`,
          )
        : "–",
    ],
    ["Last updated", `${instant(r.last_updated_at)} (${words(r.last_updated_source)})`],
  ];
  $("summary-title").textContent = `${r.identifier} (${words(r.identifier_type)})`;
  $("summary-rows").replaceChildren(...rows.map(([k, v]) => h("tr", {}, h("th", {}, k), h("td", {}, v))));
}

function renderPorts(m) {
  $("port-rows").replaceChildren(
    ...m.ports.map((p) => {
      const ids = m.idsOf(p.locode);
      const arr = portEvent(m.events, ids, ["ARRI", "DISC"]);
      const dep = portEvent(m.events, ids, ["DEPA", "LOAD"]);
      const tz = m.tzOf(p.locode);
      const cell = (e, actual, planned) =>
        e ? h("td", {}, `${e.actual ? actual : planned} ${wallClock(e.date)}`) : h("td", {}, "–");
      return h(
        "tr",
        { class: "port-row" },
        h("td", {}, portName(p)),
        cell(arr, "ATA", "ETA"),
        cell(dep, "ATD", "ETD"),
        h("td", { class: "note" }, tz ?? "–"),
      );
    }),
  );
}

function renderTimeline(record) {
  const firstChild = Object.values(record.child_containers ?? {})[0];
  const events = record.events.length ? record.events : (firstChild?.events ?? []);
  $("milestones").replaceChildren(
    ...events.map((e) =>
      h(
        "li",
        { class: e.is_actual ? "milestone actual" : "milestone" },
        h("strong", {}, e.label),
        e.location ? ` · ${e.location}` : "",
        h("br"),
        h(
          "span",
          { class: "when" },
          `${instant(e.timestamp, e.event_timezone)} · ${e.is_actual ? "actual" : e.classifier === "PLN" ? "planned" : "estimated"}`,
        ),
      ),
    ),
  );
}

const map = await createWorldMap($("map"), new URL("./land.json", import.meta.url));

async function run() {
  const key = keyOf();
  const ref = form.elements.ref.value.trim().toUpperCase();
  if (!key) {
    say("Type your ocean key (oc_…) first: it stays in this tab only.", true);
    return;
  }
  history.replaceState(null, "", `${location.pathname}?${new URLSearchParams({ ref })}`);
  say(`Reading ${ref}…`);
  const record = await lookup(ref, key);
  const data = await compat(ref, key);
  const m = model(record, data);
  renderSummary(m);
  renderPorts(m);
  renderTimeline(record);
  map.draw(scene(m));
  for (const id of ["summary", "ports", "timeline"]) $(id).classList.remove("hidden");
  const sailed = m.legs.filter((l) => l.state === "sailed").length;
  const underWay = m.legs.filter((l) => l.state === "under-way").length;
  const legs = `${m.legs.length} leg${m.legs.length === 1 ? "" : "s"}, ${sailed} sailed`;
  say(`${legs}${underWay ? `, ${underWay} under way` : ""}; ${m.ports.length} ports.`);
  document.body.dataset.tracked = String(Number(document.body.dataset.tracked ?? 0) + 1);
}

form.addEventListener("submit", (e) => {
  e.preventDefault();
  run().catch((err) => say(String(err.message ?? err), true));
});
map.draw({ lines: [], markers: [] });
document.body.dataset.ready = "1";
const shared = new URLSearchParams(location.search).get("ref");
if (shared) {
  form.elements.ref.value = shared;
  if (keyOf()) run().catch((err) => say(String(err.message ?? err), true));
}
