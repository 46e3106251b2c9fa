/**
 * The booking (BKG) and transport document (TRD, the B/L) numbers a carrier names on its events:
 * `documentReferences` on transport and equipment events, `documentID` + `documentTypeCode` on
 * shipment events. Real carriers usually give the two different numbers; the sandbox gives one, and
 * names it as TRD only once the B/L is issued.
 */
import type { DcsaEventLike } from "./dcsa.ts";

interface DocumentReference {
  documentReferenceType?: string;
  documentReferenceValue?: string;
}

export interface DocumentNumbers {
  /** Every booking number named, latest-created event's last (stable whatever the arrival order). */
  bookings: string[];
  transportDocuments: string[];
}

export function documentNumbers(events: readonly DcsaEventLike[]): DocumentNumbers {
  const ordered = [...events].sort(
    (a, b) =>
      a.eventCreatedDateTime.localeCompare(b.eventCreatedDateTime) || a.eventID.localeCompare(b.eventID),
  );
  const bookings = new Set<string>();
  const transportDocuments = new Set<string>();
  const note = (type: string | undefined, value: string | undefined) => {
    if (!value) return;
    const v = value.trim().toUpperCase();
    const set = type === "BKG" ? bookings : type === "TRD" ? transportDocuments : null;
    // Re-inserted so the latest mention comes last.
    set?.delete(v);
    set?.add(v);
  };
  for (const e of ordered) {
    if (e.eventType === "SHIPMENT") note(e.documentTypeCode, e.documentID);
    const refs = (e as { documentReferences?: DocumentReference[] }).documentReferences;
    for (const r of refs ?? []) note(r.documentReferenceType, r.documentReferenceValue);
  }
  return { bookings: [...bookings], transportDocuments: [...transportDocuments] };
}

/** The number to show for one role: the tracked identifier when the carrier names it so, else its latest. */
export function pick(named: readonly string[], identifier: string): string | null {
  return named.includes(identifier) ? identifier : (named.at(-1) ?? null);
}

/**
 * Whether the carrier's own words make `identifier` a booking: named as BKG and never as TRD.
 * `certain` when it also names a different B/L (the reference cannot be that document); otherwise
 * only a reference of unknown kind should be read as a booking (an explicit B/L may just not be
 * issued yet).
 */
export function bookingEvidence(numbers: DocumentNumbers, identifier: string): "none" | "likely" | "certain" {
  if (!numbers.bookings.includes(identifier) || numbers.transportDocuments.includes(identifier))
    return "none";
  return numbers.transportDocuments.length > 0 ? "certain" : "likely";
}
