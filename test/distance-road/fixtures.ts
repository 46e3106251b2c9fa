/**
 * Engine answers shaped like the examples the engines publish: OSRM docs/http.md (route service,
 * "Response" and error codes) and Valhalla's turn-by-turn API reference (trip, summary, legs[].shape,
 * error_code bodies). Values are a Berlin -> Hamburg truck leg, not copied from the docs.
 */
import { encodePolyline } from "../../engine/road/polyline.ts";

export const BERLIN = { lat: 52.517037, lng: 13.38886 };
export const HAMBURG = { lat: 53.550734, lng: 9.993028 };

/** A coarse road line Berlin -> Hamburg ([lat, lng]). */
export const LINE: Array<[number, number]> = [
  [52.517037, 13.38886],
  [52.75, 12.53],
  [53.1, 11.6],
  [53.38, 10.66],
  [53.550734, 9.993028],
];

export function osrmOk(geometry: unknown = encodePolyline(LINE, 6)) {
  return {
    code: "Ok",
    routes: [
      {
        geometry,
        legs: [{ steps: [], summary: "", weight: 11873.4, duration: 10962.1, distance: 289356.2 }],
        weight_name: "routability",
        weight: 11873.4,
        duration: 10962.1,
        distance: 289356.2,
      },
    ],
    waypoints: [
      { hint: "mfoKgP___38AAAAAB", distance: 4.2, name: "Unter den Linden", location: [13.38886, 52.517037] },
      { hint: "x0UOgK___38bAAAAA", distance: 7.9, name: "Mönckebergstraße", location: [9.993028, 53.550734] },
    ],
  };
}

export const OSRM_NO_ROUTE = { code: "NoRoute", message: "Impossible route between points" };
export const OSRM_NO_SEGMENT = {
  code: "NoSegment",
  message: "Could not find a matching segment for any coordinate.",
};

const summary = {
  has_time_restrictions: false,
  has_toll: false,
  has_highway: true,
  has_ferry: false,
  min_lat: 52.517037,
  min_lon: 9.993028,
  max_lat: 53.550734,
  max_lon: 13.38886,
  time: 12744.8,
  length: 291.342,
  cost: 14110.6,
};

export function valhallaOk(units: "kilometers" | "miles" = "kilometers") {
  const length = units === "miles" ? 181.03 : summary.length;
  return {
    trip: {
      locations: [
        { type: "break", lat: BERLIN.lat, lon: BERLIN.lng, original_index: 0 },
        { type: "break", lat: HAMBURG.lat, lon: HAMBURG.lng, original_index: 1 },
      ],
      legs: [
        { summary: { ...summary, length }, shape: encodePolyline(LINE.slice(0, 3), 6) },
        { summary: { ...summary, length: 0 }, shape: encodePolyline(LINE.slice(2), 6) },
      ],
      summary: { ...summary, length },
      status_message: "Found route between points",
      status: 0,
      units,
      language: "en-US",
    },
  };
}

export const VALHALLA_NO_PATH = {
  error_code: 442,
  error: "No path could be found for input",
  status_code: 400,
  status: "Bad Request",
};
export const VALHALLA_NO_EDGES = {
  error_code: 171,
  error: "No suitable edges near location",
  status_code: 400,
  status: "Bad Request",
};
