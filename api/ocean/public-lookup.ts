/**
 * GET /public/v1/lookup/{number}: the open, unkeyed lookup (ingest/tracking/public-lookup.ts asks
 * the carrier live and keeps each answer 90 seconds) in the public tracker's shape. Errors are
 * {ok:false, message} with a check-digit hint where one helps; a carrier that does not answer is
 * 503 with Retry-After.
 */
import type { PublicAnswer } from "../../ingest/tracking/public-lookup.ts";
import { milestoneView, type PlaceLookup, toMilestone } from "../../ingest/tracking/timeline.ts";

export function publicLookupView(answer: PublicAnswer, places: PlaceLookup) {
  const d = answer.derived;
  const name = (l: string | null) => (l ? (places.name(l) ?? l) : "Unknown");
  return {
    identifier: answer.identifier,
    identifier_type: answer.identifierType,
    carrier: answer.carrierName,
    status: d.status,
    eta: d.eta,
    eta_is_estimated: d.etaIsEstimated,
    origin_name: name(d.originUnlocode),
    destination_name: name(d.destinationUnlocode),
    vessel_name: d.currentVesselName,
    events: answer.events.map((e) => milestoneView(toMilestone(e, places))),
  };
}
