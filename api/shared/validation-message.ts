/**
 * Schema violations as messages a client can act on: the parameter named as the client sent it
 * (query `speed_knots`, body `cargo[2].weight_kg`, path `id`) and the form it must take.
 */

interface SchemaNode {
  type?: string;
  format?: string;
  const?: unknown;
  anyOf?: SchemaNode[];
}

/** One failure as Elysia reports it (TypeBox's value error, mapped). */
interface Failure {
  path?: string;
  message?: string;
  value?: unknown;
  schema?: SchemaNode;
}

/** What Elysia's ValidationError carries: where (query, body, params, headers; "property" for a decoded value) and the failures. */
export interface ValidationFault {
  type?: string;
  value?: unknown;
  all?: Failure[];
}

const PARTS: Record<string, string> = {
  query: "query parameter",
  body: "body field",
  params: "path parameter",
  headers: "header",
};

/** A JSON pointer ("/cargo/2/weight_kg") as the client writes the field: cargo[2].weight_kg. */
export function fieldName(pointer: string): string {
  return pointer
    .split("/")
    .slice(1)
    .map((s) => s.replaceAll("~1", "/").replaceAll("~0", "~"))
    .reduce((name, s) => (/^\d+$/.test(s) ? `${name}[${s}]` : name ? `${name}.${s}` : s), "");
}

const REQUIRED = "Expected required property";

const isNumeric = (m: SchemaNode) =>
  m.type === "number" || m.type === "integer" || m.format === "numeric" || m.format === "integer";

const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);

/** The form a value must take: the listed values of a literal union, the kind of a numeric one, else TypeBox's words. */
function expectedForm(failure: Failure | undefined): string {
  const members = failure?.schema?.anyOf;
  if (members?.length && members.every((m) => typeof m.const === "string")) {
    return `must be one of ${members.map((m) => m.const).join(", ")}`;
  }
  // Elysia reads a numeric query or path value as a number or its text (format numeric, integer).
  if (members?.length && members.every(isNumeric)) {
    const integer = members.some((m) => m.type === "integer" || m.format === "integer");
    return integer ? "expected an integer" : "expected a number";
  }
  if (members?.length)
    return `expected one of: ${members.map((m) => m.const ?? m.format ?? m.type).join(", ")}`;
  return lowerFirst(failure?.message ?? "does not match the schema");
}

/**
 * The message for a schema violation. `decodedName` names the parameter of a value Elysia
 * refused while decoding it (a "property" fault carries no path).
 */
export function describeValidation(
  fault: unknown,
  decodedName?: (value: unknown) => string | undefined,
): string {
  const e = fault as ValidationFault;
  const first = e.all?.[0];
  const decoded = e.type === "property" ? decodedName?.(e.value) : undefined;
  const part = PARTS[e.type ?? ""] ?? (decoded ? PARTS.query : undefined);
  const name = decoded ?? (first?.path ? fieldName(first.path) : "");
  // A missing property fails twice: as required, then as its type; the type says what to send.
  const form = expectedForm(e.all?.find((f) => f.path === first?.path && f.message !== REQUIRED) ?? first);
  if (!part) return `Invalid request: ${form}.`;
  if (!name) return `Invalid ${e.type === "body" ? "body" : part}: ${form}.`;
  const missing = first?.value === undefined && e.type !== "property";
  return missing ? `Missing ${part} \`${name}\`: ${form}.` : `Invalid ${part} \`${name}\`: ${form}.`;
}

/** The query parameter whose text is `value` (what a "property" fault refused), if one is. */
export function queryParameterHolding(url: string, value: unknown): string | undefined {
  const q = url.indexOf("?");
  if (q < 0) return undefined;
  for (const [name, text] of new URLSearchParams(url.slice(q + 1))) {
    if (
      text === String(value) ||
      (typeof value === "number" && text.trim() !== "" && Number(text) === value)
    ) {
      return name;
    }
  }
  return undefined;
}
