/**
 * The open, unkeyed lookup: answered live from the carrier (nothing is stored or charged), each
 * reference's answer kept for 90 seconds. A malformed reference is invalid_reference (with the
 * check digit's hint where one helps); a carrier that does not answer is carrier_unavailable with
 * the time to ask again, never the reference_not_resolvable that says the reference is unknown.
 */
import { type CarrierConnector, CarrierError } from "../carriers/connector.ts";
import type { CarrierDirectory } from "../carriers/resolve.ts";
import { looksLikeContainer, validateContainerNumber } from "../iso6346.ts";
import type { DcsaEventLike } from "./dcsa.ts";
import { bookingEvidence, documentNumbers } from "./documents.ts";
import { TrackingError } from "./errors.ts";
import { currentEvents, type Derived, derive, eventsForContainer } from "./timeline.ts";

const CACHE_MS = 90_000;
/** When to ask again after a carrier that did not answer and named no time of its own. */
const CARRIER_RETRY_S = 30;

/** What the carrier says of a reference now: its current events and what they derive. */
export interface PublicAnswer {
  identifier: string;
  /** The public tracker's vocabulary (booking_number for bookings). */
  identifierType: "container_id" | "booking_number" | "bill_of_lading";
  carrierName: string;
  derived: Derived;
  /** Current events, oldest first (a container's own only). */
  events: DcsaEventLike[];
}

/**
 * A carrier that is down, slow, limiting us or refusing our credentials: the reference may well be
 * real and the same lookup may answer later (the carrier's own wait when it gave one).
 */
function carrierAway(carrierName: string, err: CarrierError): TrackingError {
  const wait = err.details.retryAfterSeconds ?? CARRIER_RETRY_S;
  return new TrackingError("carrier_unavailable", `${carrierName} did not answer; try again in ${wait} s.`, {
    retry_after_seconds: wait,
  });
}

const cache = new Map<string, { at: number; answer: PublicAnswer }>();

/** The reference as sent, checked: a container number or a B/L-shaped number. */
function checked(raw: string): { number: string; isContainer: boolean } {
  const number = raw.trim().toUpperCase().replace(/\s/g, "");
  const isContainer = looksLikeContainer(number);
  if (isContainer) {
    const check = validateContainerNumber(number);
    if (!check.ok)
      throw new TrackingError(
        "invalid_reference",
        `${number} is not a valid container number: ${check.message}`,
      );
  } else if (!/^[A-Z0-9]{4,50}$/.test(number)) {
    throw new TrackingError(
      "invalid_reference",
      "Send a container number (4 letters, 7 digits) or a bill of lading number.",
    );
  }
  return { number, isContainer };
}

export async function publicLookup(
  carriers: CarrierDirectory,
  connectors: ReadonlyMap<string, CarrierConnector>,
  raw: string,
): Promise<PublicAnswer> {
  const { number, isContainer } = checked(raw);
  const hit = cache.get(number);
  if (hit && Date.now() - hit.at < CACHE_MS) return hit.answer;
  const kind = isContainer ? "container" : "bill_of_lading";
  const resolution = carriers.resolve({ reference: number, kind });
  const connector = resolution.carrier ? connectors.get(resolution.carrier.scac) : undefined;
  if (!resolution.carrier || !connector) {
    throw new TrackingError("reference_not_resolvable", `No connected line recognises ${number}.`);
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
      if (unknown)
        throw new TrackingError("reference_not_resolvable", `${carrierName} does not know ${number}.`);
      throw carrierAway(carrierName, err);
    }
    events = asBooking;
    answeredAsBooking = true;
  }
  // Nothing is stored here, so the events alone say the kind: named BKG and never TRD is a booking.
  const isBooking =
    !isContainer && (answeredAsBooking || bookingEvidence(documentNumbers(events), number) !== "none");
  const current = currentEvents(isContainer ? eventsForContainer(events, number) : events);
  const answer: PublicAnswer = {
    identifier: number,
    identifierType: isContainer ? "container_id" : isBooking ? "booking_number" : "bill_of_lading",
    carrierName,
    derived: derive(current),
    events: current,
  };
  if (cache.size > 10_000) cache.clear();
  cache.set(number, { at: Date.now(), answer });
  return answer;
}
