/**
 * The route chain the distance planners render (engine/chain.ts) as named OpenAPI components: one
 * section schema per mode, the section a oneOf on transport_mode, the transfers between sections,
 * and the sea route the SEA mode answers with. Strict objects, so an answer with a missing or
 * extra field in any mode's section fails the answer check. The fields per mode are the planners'
 * (docs/multimodal.md).
 */
import { type TSchema, t } from "elysia";
import { MODES } from "../../engine/modes/index.ts";
import type { TransportMode } from "../../engine/modes/profile.ts";
import { Int, nullable, strict, Text } from "../shared/openapi/responses.ts";

export const Mode = t.Union(
  MODES.map((m) => t.Literal(m)),
  { $id: "TransportMode" },
);

/** Where a leg really starts or ends, and how far that is from the place asked (docs/multimodal.md). */
const RoutePoint = strict(
  {
    lat: t.Number(),
    lng: t.Number(),
    distance_km: t.Number(),
    note: t.Optional(t.String({ description: "Why a sea route starts or ends away from the place" })),
  },
  { $id: "RoutePoint" },
);

/** A resolved end or transfer place: kind, name, codes and coordinates (fields vary by kind). */
export const Place = t.Object(
  { lat: t.Number(), lng: t.Number(), route_point: t.Optional(RoutePoint) },
  {
    $id: "Place",
    additionalProperties: true,
    description: "A place as resolved: kind, name, codes, lat, lng",
  },
);

export const Distance = strict({ km: t.Number(), nm: t.Number(), meters: Int() }, { $id: "ChainDistance" });
export const Duration = strict(
  { hours: t.Number(), days: t.Number(), seconds: Int() },
  { $id: "ChainDuration" },
);
export const Emissions = strict(
  { co2e_kg: t.Number(), co2e_ttw_kg: t.Number(), cargo_tonnes: t.Number(), method: t.String() },
  {
    $id: "Emissions",
    description: "Well-to-wheel and tank-to-wheel kg CO2e for the cargo mass (docs/emissions.md)",
  },
);
/** [lat, lng] pairs. */
export const Path = t.Array(t.Array(t.Number(), { minItems: 2, maxItems: 2 }), { $id: "Path" });
const Passage = strict({ id: t.String(), name: t.String() }, { $id: "Passage" });
export const Eca = strict(
  {
    nm: t.Number(),
    non_eca_nm: t.Number(),
    share: t.Number(),
    zones: t.Array(strict({ id: t.String(), name: t.String(), nm: t.Number() })),
  },
  { $id: "EcaSplit", description: "Nautical miles inside Emission Control Areas, per zone" },
);

const SeasonalNote = strict(
  {
    id: t.String(),
    kind: t.String(),
    note: t.String(),
    typical_window: t.String(),
    source: t.String(),
    km: t.Number(),
    time_factor: t.Optional(t.Number()),
    reopens_about: t.Optional(t.String()),
    effect: t.Union([t.Literal("no_route"), t.Literal("detour"), t.Literal("slower")]),
  },
  { $id: "SeasonalNote" },
);
export const SeasonalNotes = t.Array(SeasonalNote);

/** A section of `mode` with the fields every section has and the mode's own. */
const section = (mode: TransportMode, own: Record<string, TSchema>) =>
  strict(
    {
      transport_mode: t.Literal(mode),
      from: Place,
      to: Place,
      distance: Distance,
      duration: Duration,
      ...own,
      path: t.Optional(Path),
      route_points: t.Optional(strict({ from: t.Optional(RoutePoint), to: t.Optional(RoutePoint) })),
      estimated: t.Boolean(),
      emissions: Emissions,
    },
    { $id: `${mode[0]}${mode.slice(1).toLowerCase()}Section` },
  );

const SeaSection = section("SEA", {
  speed_knots: t.Number(),
  via: Text,
  eca: Eca,
  passages: t.Array(Passage),
});

const RoadSection = section("ROAD", {
  driving_hours: t.Number(),
  rest_hours: t.Number(),
  ferry_hours: t.Number(),
  ferry_paths: t.Array(Path),
  crossings: t.Array(
    strict({
      name: t.String(),
      kind: t.Union([t.Literal("ferry"), t.Literal("tunnel"), t.Literal("bridge")]),
      hours: t.Number(),
      km: t.Number(),
    }),
  ),
  source: t.String({ description: "model, osrm, valhalla, or estimate when the engine is down" }),
  attribution: t.String(),
  reason: t.Optional(t.String({ description: "Why an estimate stands in for the engine" })),
});

const RailSection = section("RAIL", { speed_kmh: t.Number() });

const AirSection = section("AIR", { great_circle_km: t.Number(), speed_kmh: t.Number() });

const RiverSection = section("RIVER", {
  speed_kmh: t.Number(),
  current: strict({ downstream_km: t.Number(), upstream_km: t.Number(), slack_water_km: t.Number() }),
  locks: Int(),
  lock_hours: t.Number(),
  waterways: t.Array(strict({ name: t.String(), km: t.Number(), class: Text })),
  seasonal: SeasonalNotes,
  attribution: t.String(),
});

/** One leg of a chain: its mode's schema, chosen by transport_mode. */
export const Section = t.Unsafe<unknown>({
  $id: "Section",
  oneOf: [SeaSection, RoadSection, RailSection, AirSection, RiverSection],
  discriminator: { propertyName: "transport_mode" },
});

const Transfer = strict(
  { at: Place, from_mode: nullable(Mode), to_mode: nullable(Mode), hours: t.Number() },
  { $id: "Transfer", description: "Terminal handling where the freight changes mode (or starts or ends)" },
);

/** GeoJSON FeatureCollection, one LineString feature per section (geometry=geojson). */
export const Geometry = t.Object(
  { type: t.Literal("FeatureCollection"), features: t.Array(t.Object({}, { additionalProperties: true })) },
  { $id: "GeoJsonGeometry", additionalProperties: true },
);

export const RouteChain = strict(
  {
    label: t.String(),
    transport_modes: t.Array(Mode),
    summary: strict({
      distance: Distance,
      duration: Duration,
      moving_hours: t.Number(),
      handling_hours: t.Number(),
      speed_kmh: t.Number(),
      cost_index: t.Number(),
      emissions: Emissions,
    }),
    sections: t.Array(Section),
    transfers: t.Array(Transfer),
    estimated: t.Boolean(),
    geometry: t.Optional(Geometry),
  },
  { $id: "RouteChain", description: "Sections and transfers; the summary is their sum (docs/multimodal.md)" },
);

/** The SEA mode's route: distance, ECA split, transit at the speed asked, passages. */
export const SeaRoute = strict(
  {
    label: t.String(),
    distance: strict({ nm: t.Number(), km: t.Number() }),
    eca: Eca,
    transit: strict({ speed_knots: t.Number(), hours: t.Number(), days: t.Number() }),
    passages: t.Array(Passage),
    emissions: Emissions,
    path: t.Optional(Path),
    geometry: t.Optional(Geometry),
  },
  { $id: "SeaRoute" },
);
