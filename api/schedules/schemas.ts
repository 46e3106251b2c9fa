/**
 * The schedules resources' shapes as the OpenAPI document names them: the sailing and its calls
 * (calls.ts renders them), the point-to-point routing (search.ts), reliability tallies and the
 * follow (follows.ts).
 */
import { t } from "elysia";
import { FOLLOW_KINDS } from "../../ingest/schedules/follows.ts";
import { DateTime, Day, Int, nullable, strict } from "../shared/openapi/responses.ts";

const Text = nullable(t.String());
/** Times as the carrier published them, in the port's offset. */
const Times = strict({ planned: Text, estimated: Text, actual: Text });
const CutOff = strict({ code: t.String(), at: t.String() });
const Port = { unlocode: t.String(), port_name: Text };

const SAILING_HEADER = {
  sailing_id: t.String(),
  carrier: t.String(),
  service_code: Text,
  service_name: Text,
  voyage: Text,
  vessel: strict({ imo: Text, name: Text }),
};

const CALL_FIELDS = {
  ...Port,
  terminal: Text,
  transport_call_reference: Text,
  import_voyage: Text,
  export_voyage: Text,
  arrival: Times,
  departure: Times,
  cut_offs: t.Array(CutOff),
};

export const ScheduleCall = strict(CALL_FIELDS, {
  $id: "ScheduleCall",
  description: "A port call as published",
});

export const Sailing = strict(
  { ...SAILING_HEADER, departs_at: Text, arrives_at: Text, calls: t.Array(ScheduleCall) },
  { $id: "Sailing" },
);

export const PortCall = strict(
  { ...SAILING_HEADER, ...CALL_FIELDS },
  { $id: "PortCall", description: "A call with the sailing it belongs to" },
);

export const Routing = strict(
  {
    routing: t.String(),
    departure_at: DateTime,
    arrival_at: DateTime,
    transit_hours: Int({ minimum: 0 }),
    transit_days: t.Number({ minimum: 0 }),
    transshipments: Int({ minimum: 0, maximum: 2 }),
    connections: t.Array(strict({ ...Port, connection_hours: Int() })),
    cut_offs: t.Array(CutOff),
    legs: t.Array(
      strict({
        ...SAILING_HEADER,
        sailing_ids: t.Array(t.String()),
        voyages: t.Array(Text),
        from: ScheduleCall,
        to: ScheduleCall,
        stays_aboard_at: t.Array(strict(Port)),
      }),
    ),
  },
  { $id: "Routing", description: "A point-to-point routing: one to three vessel legs" },
);

const TALLY = {
  calls: Int({ minimum: 0 }),
  on_time: Int({ minimum: 0 }),
  reliability: nullable(t.Number({ minimum: 0, maximum: 1 })),
  mean_delay_hours: nullable(t.Number()),
};

export const ReliabilityAnswer = strict({
  window: strict({ from: DateTime, to: DateTime, days: Int({ minimum: 1 }) }),
  tolerance_hours: t.Number(),
  lane: nullable(strict({ origin: t.String(), destination: t.String() })),
  overall: strict(TALLY),
  carriers: t.Array(strict({ carrier: t.String(), ...TALLY })),
});

export const PointToPoint = strict({
  origin: t.String(),
  destination: t.String(),
  from: Day,
  to: Day,
  max_transshipments: Int({ minimum: 0, maximum: 2 }),
  min_connection_hours: t.Number(),
  sort: t.Union([t.Literal("departure"), t.Literal("transit_time")]),
  total: Int({ minimum: 0 }),
  routes: t.Array(Routing),
});

export const PortCalls = strict({ unlocode: t.String(), from: Day, to: Day, calls: t.Array(PortCall) });
export const VesselSchedule = strict({ imo: t.String(), from: Day, to: Day, sailings: t.Array(Sailing) });
export const ServiceSchedule = strict({
  service_code: t.String(),
  from: Day,
  to: Day,
  sailings: t.Array(Sailing),
});

export const Follow = strict(
  {
    id: t.String(),
    type: t.Union(FOLLOW_KINDS.map((k) => t.Literal(k))),
    sailing_id: Text,
    carrier: Text,
    origin: Text,
    destination: Text,
    service_code: Text,
    lead_hours: Int({ minimum: 0 }),
    cut_off_codes: t.Array(t.String()),
    created_at: DateTime,
  },
  { $id: "Follow" },
);
