/**
 * GET /public/v1/lookup/{number}: an open, unkeyed lookup answered live from the carrier (nothing is
 * stored or charged), cached per reference for 90 seconds. Errors are {ok:false, message} with a
 * check-digit hint where one helps; a carrier that does not answer is 503 with Retry-After.
 */
import { CarrierError } from "../../ingest/carriers/connector.ts";
import { looksLikeContainer, validateContainerNumber } from "../../ingest/iso6346.ts";
import type { DcsaEventLike } from "../../ingest/tracking/dcsa.ts";
import { bookingEvidence, documentNumbers } from "../../ingest/tracking/documents.ts";
import {
  currentEvents,
  derive,
  eventsForContainer,
  milestoneView,
  toMilestone,
} from "../../ingest/tracking/timeline.ts";
import { ApiError } from "../shared/errors.ts";
import type { TrackingServices } from "./services.ts";

const CACHE_MS = 90_000;
/** When to ask again after a carrier that did not answer and named no time of its own. */
const CARRIER_RETRY_S = 30;

/**
 * A carrier that is down, slow, limiting us or refusing our credentials: 503 with Retry-After (the
 * carrier's own when it gave one), since the reference may well be real and the same lookup may
 * answer later; never the 404 that says the reference is unknown.
 */
function carrierAway(carrierName: string, err: CarrierError): ApiError {
  const wait = err.details.retryAfterSeconds ?? CARRIER_RETRY_S;
  return new ApiError("overloaded", `${carrierName} did not answer; try again in ${wait} s.`, {
    retry_after_seconds: wait,
  });
}
const cache = new Map<string, { at: number; data: unknown }>();

export async function publicLookup(tracking: TrackingServices, raw: string): Promise<unknown> {
  const number = raw.trim().toUpperCase().replace(/\s/g, "");
  const isContainer = looksLikeContainer(number);
  if (isContainer) {
    const check = validateContainerNumber(number);
    if (!check.ok)
      throw new ApiError("validation", `${number} is not a valid container number: ${check.message}`);
  } else if (!/^[A-Z0-9]{4,50}$/.test(number)) {
    throw new ApiError(
      "validation",
      "Send a container number (4 letters, 7 digits) or a bill of lading number.",
    );
  }
  const hit = cache.get(number);
  if (hit && Date.now() - hit.at < CACHE_MS) return hit.data;
  const kind = isContainer ? "container" : "bill_of_lading";
  const resolution = tracking.carriers.resolve({ reference: number, kind });
  const connector = resolution.carrier ? tracking.connectors.get(resolution.carrier.scac) : undefined;
  if (!resolution.carrier || !connector) {
    throw new ApiError("referenceNotResolvable", `No connected line recognises ${number}.`);
  }
  const carrierName = resolution.carrier.name;
  let events: DcsaEventLike[];
  // Unknown as a B/L, known as a booking (a carrier whose booking and B/L numbers differ).
  let answeredAsBooking = false;
  try {
    events = (await connector.fetchEvents({ kind, value: number })) as DcsaEventLike[];
  } catch (err) {
    if (!(err instanceof CarrierError)) throw err;
    const unknown = err.kind === "rejected" && err.status === 404;
    const asBooking =
      unknown && !isContainer
        ? ((await connector.fetchEvents({ kind: "booking", value: number }).catch(() => null)) as
            | DcsaEventLike[]
            | null)
        : null;
    if (!asBooking) {
      if (unknown) throw new ApiError("referenceNotResolvable", `${carrierName} does not know ${number}.`);
      throw carrierAway(carrierName, err);
    }
    events = asBooking;
    answeredAsBooking = true;
  }
  // Nothing is stored here, so the events alone say the kind: named BKG and never TRD is a booking.
  const isBooking =
    !isContainer && (answeredAsBooking || bookingEvidence(documentNumbers(events), number) !== "none");
  const { places } = tracking.engine;
  const current = currentEvents(isContainer ? eventsForContainer(events, number) : events);
  const d = derive(current);
  const name = (l: string | null) => (l ? (places.name(l) ?? l) : "Unknown");
  const data = {
    identifier: number,
    // The public tracker's vocabulary (booking_number for bookings).
    identifier_type: isContainer ? "container_id" : isBooking ? "booking_number" : "bill_of_lading",
    carrier: carrierName,
    status: d.status,
    eta: d.eta,
    eta_is_estimated: d.etaIsEstimated,
    origin_name: name(d.originUnlocode),
    destination_name: name(d.destinationUnlocode),
    vessel_name: d.currentVesselName,
    events: current.map((e) => milestoneView(toMilestone(e, places))),
  };
  if (cache.size > 10_000) cache.clear();
  cache.set(number, { at: Date.now(), data });
  return data;
}
