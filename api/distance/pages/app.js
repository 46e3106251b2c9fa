/**
 * The route map page (GET /map on the distance host): the form's options become a call to
 * /v1/distance/route or /v1/distance/multimodal with the typed key; the chains come back drawn on
 * the world map (the selected one by mode, the others dashed), with its summary and sections as
 * tables and the same call as a link and a curl line. The page URL keeps the form (never the key).
 */
import { failure, h } from "./dom.js";
import { sessionKey } from "./session-key.js";
import { createWorldMap, dLng } from "./worldmap.js";

const $ = (id) => document.getElementById(id);
const form = $("query");
const status = $("status");
const keyOf = sessionKey("distance", $("key"), $("forget"));
const ALL_MODES = ["SEA", "ROAD", "RAIL", "AIR", "RIVER"];

const say = (text, error = false) => {
  status.textContent = text;
  status.classList.toggle("error", error);
};

/** Shows the fields of the chosen API only. */
function showFields() {
  const api = form.elements.api.value;
  for (const node of form.querySelectorAll("[data-for]")) {
    node.classList.toggle("hidden", node.dataset.for !== api);
  }
}

/** The API query the form describes (path=true: the map needs the geometry). */
function apiQuery() {
  const f = form.elements;
  const api = f.api.value;
  const q = new URLSearchParams({ from: f.from.value.trim(), to: f.to.value.trim() });
  const put = (name, value) => {
    if (value !== "" && value !== undefined) q.set(name, value);
  };
  if (api === "route") put("mode", f.mode.value);
  else {
    const modes = [...form.querySelectorAll("input[name=modes]:checked")].map((c) => c.value);
    if (modes.length !== ALL_MODES.length) put("modes", modes.join(","));
    put("optimize", f.optimize.value);
    put("pol", f.pol.value.trim().toUpperCase());
    put("pod", f.pod.value.trim().toUpperCase());
  }
  // The date only moves river rules: the route API reads it for RIVER, multimodal whenever allowed.
  if (api === "multimodal" || f.mode.value === "RIVER") put("date", f.date.value);
  put("speed_knots", f.speed_knots.value);
  put("avoid", f.avoid.value.replaceAll(" ", ""));
  put("routing_mode", f.routing_mode.value);
  put("cargo_tonnes", f.cargo_tonnes.value);
  q.set("alternatives", String(f.alternatives.checked));
  q.set("path", "true");
  return { api, path: `/v1/distance/${api}?${q}` };
}

/** Fills the form from the page URL (a shared link) and says whether it named a route. */
function fromPageUrl() {
  const q = new URLSearchParams(location.search);
  if (!q.get("from") || !q.get("to")) return false;
  const f = form.elements;
  f.api.value = q.get("api") === "multimodal" ? "multimodal" : "route";
  for (const name of ["from", "to", "mode", "optimize", "pol", "pod", "date", "speed_knots", "avoid"]) {
    if (q.has(name)) f[name].value = q.get(name);
  }
  if (q.has("routing_mode")) f.routing_mode.value = q.get("routing_mode");
  if (q.has("cargo_tonnes")) f.cargo_tonnes.value = q.get("cargo_tonnes");
  if (q.has("alternatives")) f.alternatives.checked = q.get("alternatives") !== "false";
  if (q.has("modes")) {
    const modes = new Set(q.get("modes").toUpperCase().split(","));
    for (const c of form.querySelectorAll("input[name=modes]")) c.checked = modes.has(c.value);
  }
  return true;
}

/** Every answer as chains: a sea route (no mode) becomes one chain of one SEA section. */
function chainsOf(data) {
  if (data.route.sections) return [data.route, ...data.alternatives];
  const sea = (r) => ({
    label: r.label,
    transport_modes: ["SEA"],
    summary: {
      distance: r.distance,
      duration: { hours: r.transit.hours, days: r.transit.days },
      emissions: r.emissions,
    },
    sections: [
      {
        transport_mode: "SEA",
        from: data.from,
        to: data.to,
        distance: r.distance,
        duration: { hours: r.transit.hours },
        speed_knots: r.transit.speed_knots,
        via: r.passages.map((p) => p.name).join(", "),
        eca: r.eca,
        path: r.path,
      },
    ],
    transfers: [],
  });
  return [sea(data.route), ...data.alternatives.map(sea)];
}

// ECA zones: the polygons the data build split route lengths with (they close over land, so only
// the parts of sea legs inside them are marked, never the zones themselves).
let ecaZones = null;
const inRing = (ring, lng, lat) => {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i];
    const [xj, yj] = ring[j];
    if (yi > lat !== yj > lat && lng < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
};
const inEca = (lat, lng) =>
  (ecaZones ?? []).some((f) => {
    const polys = f.geometry.type === "Polygon" ? [f.geometry.coordinates] : f.geometry.coordinates;
    return polys.some(
      (rings) => inRing(rings[0], lng, lat) && !rings.slice(1).some((r) => inRing(r, lng, lat)),
    );
  });

/** Runs of a sea path whose segments' midpoints lie in an ECA. */
function ecaRuns(path) {
  const runs = [];
  let run = null;
  for (let i = 0; i + 1 < path.length; i++) {
    const [a, b] = [path[i], path[i + 1]];
    const mid = [(a[0] + b[0]) / 2, a[1] + dLng(a[1], b[1]) / 2];
    if (inEca(mid[0], ((mid[1] + 540) % 360) - 180)) {
      if (!run) {
        run = [a];
        runs.push(run);
      }
      run.push(b);
    } else run = null;
  }
  return runs;
}

// Seasonal river rules: the API's notes name a rule (id, kind, km) but carry no geometry; the host
// serves each rule's stretch (the river graph's edges under it), fetched once a route has notes.
let stretches = null;
const stretchesOf = () =>
  (stretches ??= fetch(new URL("./seasonal-stretches.json", import.meta.url))
    .then((r) => (r.ok ? r.json() : {}))
    .catch(() => ({})));

/** The notes of the answer and of the chain's sections (slow-downs on its barge leg), one per rule. */
function seasonalNotes(data, chain) {
  const byId = new Map();
  for (const n of [...(data.seasonal_notes ?? []), ...chain.sections.flatMap((s) => s.seasonal ?? [])])
    if (!byId.has(n.id)) byId.set(n.id, n);
  return [...byId.values()];
}

/** One line per noted rule with a known stretch: `seasonal closure|ice_risk|low_water|high_water`. */
function seasonalLines(notes, known) {
  return notes
    .filter((n) => known[n.id])
    .map((n) => {
      const s = known[n.id];
      const when = n.reopens_about ? `, reopens about ${n.reopens_about}` : "";
      return {
        parts: s.lines,
        cls: `seasonal ${s.kind}`,
        title: `${n.id} ${s.kind} (${n.effect}${when}): ${s.waterway}, ${s.segment}`,
      };
    });
}

const at = (p) => [p.lat, p.lng];
const sectionLine = (s) => (s.path?.length >= 2 ? s.path : [at(s.from), at(s.to)]);
const placeName = (p) => (p.locode ? `${p.name} (${p.locode})` : p.iata ? `${p.name} (${p.iata})` : p.name);
const fixed = (n, d = 1) => (typeof n === "number" ? n.toFixed(d) : "–");
const MODE_NAMES = { SEA: "Sea", ROAD: "Road", RAIL: "Rail", AIR: "Air", RIVER: "River" };
const shortName = (p) => p.locode ?? p.iata ?? p.name;

/**
 * A chain named by its legs and their ends ("Sea NLRTM → CNSHA", "Road Paris → BEANR, Sea BEANR →
 * CNSHA"): the API's label says the modes only, alike for chains through different ports.
 */
const chainName = (c) =>
  c.sections
    .map(
      (s) => `${MODE_NAMES[s.transport_mode] ?? s.transport_mode} ${shortName(s.from)} → ${shortName(s.to)}`,
    )
    .join(", ");

function scene(data, chains, selected, known) {
  const lines = [];
  chains.forEach((chain, i) => {
    if (i === selected) return;
    for (const s of chain.sections)
      lines.push({ points: sectionLine(s), cls: "alt", title: chainName(chain) });
  });
  const chain = chains[selected];
  // Slow-downs as a band under the legs (they mostly lie along the barge leg); closures on top.
  const seasonal = seasonalLines(seasonalNotes(data, chain), known);
  lines.push(...seasonal.filter((l) => !l.cls.endsWith("closure")));
  for (const s of chain.sections) {
    if (s.transport_mode === "SEA" && s.path) {
      for (const run of ecaRuns(s.path))
        lines.push({ points: run, cls: "eca", title: "Emission control area" });
    }
  }
  chain.sections.forEach((s, i) => {
    const title = `${i + 1}. ${s.transport_mode} ${placeName(s.from)} → ${placeName(s.to)}`;
    lines.push({ points: sectionLine(s), cls: `leg ${s.transport_mode}`, title });
    for (const ferry of s.ferry_paths ?? []) lines.push({ points: ferry, cls: "ferry", title: "Ferry" });
  });
  lines.push(...seasonal.filter((l) => l.cls.endsWith("closure")));
  const markers = [
    { at: at(data.from), cls: "end", label: data.from.name, title: placeName(data.from), r: 6 },
    { at: at(data.to), cls: "end", label: data.to.name, title: placeName(data.to), r: 6 },
    ...(chain.transfers ?? []).map((t) => ({
      at: at(t.at),
      cls: "transfer",
      title: `${t.from_mode} → ${t.to_mode} at ${placeName(t.at)}, ${t.hours} h`,
    })),
  ];
  return { lines, markers };
}

function sectionNotes(s) {
  const notes = [];
  if (s.via) notes.push(`via ${s.via}`);
  if (s.eca?.nm > 0) {
    const zones = s.eca.zones.map((z) => `${z.name} ${z.nm} nm`).join(", ");
    notes.push(`ECA ${s.eca.nm} nm (${Math.round(s.eca.share * 100)} %): ${zones}`);
  }
  if (s.driving_hours !== undefined) notes.push(`driving ${s.driving_hours} h, rests ${s.rest_hours} h`);
  if (s.ferry_paths?.length) notes.push(`${s.ferry_paths.length} ferry crossing(s), ${s.ferry_hours} h`);
  if (s.crossings?.length) notes.push(`${s.crossings.length} border crossing(s)`);
  if (s.locks !== undefined) notes.push(`${s.locks} locks`);
  if (s.waterways?.length)
    notes.push(
      s.waterways
        .slice(0, 3)
        .map((w) => w.name)
        .join(", "),
    );
  const seasonal = (s.seasonal ?? []).map((n) =>
    h("div", { class: n.effect === "slower" ? "" : "closed" }, `${n.id} ${n.effect}: ${n.note}`),
  );
  if (s.estimated) notes.push("estimated");
  return [notes.join("; "), ...seasonal];
}

function renderTables(data, chains, selected, pick) {
  $("chain-rows").replaceChildren(
    ...chains.map((c, i) =>
      h(
        "tr",
        { class: `chain-row${i === selected ? " selected" : ""}`, "data-index": i },
        h("td", { title: c.label }, i === 0 ? `${chainName(c)} (best)` : chainName(c)),
        h(
          "td",
          {},
          c.transport_modes.map((m) => h("span", { class: `mode ${m}` }, m)),
        ),
        h("td", { class: "num" }, fixed(c.summary.distance.km)),
        h("td", { class: "num" }, fixed(c.summary.duration.days, 2)),
        h("td", { class: "num" }, fixed(c.summary.emissions?.co2e_kg)),
      ),
    ),
  );
  for (const row of $("chain-rows").children) {
    row.addEventListener("click", () => pick(Number(row.dataset.index)));
  }
  const chain = chains[selected];
  $("sections-title").textContent = `Sections: ${chainName(chain)}`;
  $("section-rows").replaceChildren(
    ...chain.sections.map((s, i) =>
      h(
        "tr",
        { class: "section-row" },
        h("td", {}, i + 1),
        h("td", {}, h("span", { class: `mode ${s.transport_mode}` }, s.transport_mode)),
        h("td", {}, `${placeName(s.from)} → ${placeName(s.to)}`),
        h("td", { class: "num" }, fixed(s.distance.km)),
        h("td", { class: "num" }, fixed(s.duration.hours, 1)),
        h("td", { class: "note" }, sectionNotes(s)),
      ),
    ),
  );
  const closures = (data.seasonal_notes ?? []).map((n) =>
    h(
      "p",
      { class: n.effect === "slower" ? "note" : "note closed" },
      `${n.id} ${n.kind ?? ""} ${n.effect}: ${n.note}`,
      n.reopens_about ? ` (reopens about ${n.reopens_about})` : "",
      n.km ? `, ${n.km} km` : "",
    ),
  );
  $("notes").replaceChildren(
    ...(data.date ? [h("p", { class: "note" }, `River rules applied for ${data.date}.`)] : []),
    ...closures,
  );
  for (const id of ["chains", "sections", "call"]) $(id).classList.remove("hidden");
}

const map = await createWorldMap($("map"), new URL("./land.json", import.meta.url));
// Without the zones (no source data on this host) sea legs are drawn without ECA marks.
const ecaReady = fetch(new URL("./eca-zones.json", import.meta.url))
  .then((r) => (r.ok ? r.json() : null))
  .then((geo) => {
    ecaZones = geo?.features ?? null;
  })
  .catch(() => {});

async function run() {
  const key = keyOf();
  if (!key) {
    say("Type your distance key (ds_…) first: it stays in this tab only.", true);
    return;
  }
  const { api, path } = apiQuery();
  const shown = new URLSearchParams(path.slice(path.indexOf("?") + 1));
  shown.delete("path");
  shown.set("api", api);
  history.replaceState(null, "", `${location.pathname}?${shown}`);
  $("api-link").href = path;
  $("api-link").textContent = path;
  $("curl").textContent = `curl -s -H "Authorization: Bearer $DKEY" '${location.origin}${path}'`;
  say("Routing…");
  await ecaReady;
  const started = performance.now();
  const res = await fetch(path, { headers: { authorization: `Bearer ${key}` } });
  if (!res.ok) {
    say(`${res.status}: ${await failure(res)}`, true);
    return;
  }
  const { data } = await res.json();
  const chains = chainsOf(data);
  const noted = chains.some((c) => seasonalNotes(data, c).length > 0);
  const known = noted ? await stretchesOf() : {};
  const pick = (i) => {
    renderTables(data, chains, i, pick);
    map.draw(scene(data, chains, i, known));
  };
  pick(0);
  const ms = Math.round(performance.now() - started);
  say(`${chains.length} route${chains.length === 1 ? "" : "s"} in ${ms} ms.`);
  document.body.dataset.routed = String(Number(document.body.dataset.routed ?? 0) + 1);
}

form.elements.api.addEventListener("change", showFields);
form.addEventListener("submit", (e) => {
  e.preventDefault();
  run().catch((err) => say(String(err.message ?? err), true));
});
showFields();
map.draw({ lines: [], markers: [] });
document.body.dataset.ready = "1";
if (fromPageUrl()) {
  showFields();
  if (keyOf()) run().catch((err) => say(String(err.message ?? err), true));
}
