/** Field shapes the event payloads of several products share. */
import { type Static, type TOptional, type TProperties, type TSchema, Type } from "@sinclair/typebox";

export const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

/** An object with exactly these fields: a payload carries no field its schema does not name. */
export const Obj = <P extends TProperties>(p: P) => Type.Object(p, { additionalProperties: false });

export const Str = Type.String();
export const Int = Type.Integer();
export const Num = Type.Number();
export const Bool = Type.Boolean();
export const NStr = Nullable(Str);
export const NInt = Nullable(Int);
export const NNum = Nullable(Num);

/** Every property of `p` made optional: fields present all together or not at all. */
export function optional<P extends TProperties>(p: P) {
  return Object.fromEntries(Object.entries(p).map(([k, v]) => [k, Type.Optional(v)])) as {
    [K in keyof P]: TOptional<P[K]>;
  };
}

/**
 * A real-world moment's wall clock at its place: absent, not null, when the place's zone is unknown
 * (spec, Events); event_date_time beside it stays the authoritative UTC instant.
 */
const LOCAL_TIME = optional({
  event_local_datetime: Str,
  utc_offset_minutes: Int,
  event_timezone: Str,
});

/**
 * The real-world event behind a payload: what happened, where, the product's own fields (the
 * vessel, the flight), and when: event_date_time is the authoritative UTC instant.
 */
export const moment = <P extends TProperties>(own: P) => ({
  event_type: Str,
  label: Str,
  location: NStr,
  ...own,
  event_date_time: Str,
  ...LOCAL_TIME,
});

const LocalTime = Obj(LOCAL_TIME);
export type KnownLocalTime = Static<typeof LocalTime>;
