/** RFC 4180 CSV reader: quoted fields, doubled quotes, CRLF, a leading BOM. Rows keep their raw width. */
export function parseCsv(text: string): string[][] {
  return parseCsvRows(text).map((r) => r.fields);
}

/** As parseCsv, with the 1-based line each row starts on (quoted fields may span lines). */
export function parseCsvRows(text: string): Array<{ line: number; fields: string[] }> {
  const rows: Array<{ line: number; fields: string[] }> = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  let line = 1;
  let start = 1;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else {
        if (c === "\n" || (c === "\r" && text[i + 1] !== "\n")) line++;
        field += c;
      }
    } else if (c === '"' && field === "") quoted = true;
    else if (c === ",") {
      row.push(field);
      field = "";
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      row.push(field);
      rows.push({ line: start, fields: row });
      row = [];
      field = "";
      start = ++line;
    } else field += c;
  }
  if (field !== "" || row.length > 0) {
    row.push(field);
    rows.push({ line: start, fields: row });
  }
  return rows;
}

/** Rows as objects keyed by the header line; short rows get "" for missing columns. */
export function csvRecords(text: string): Array<Record<string, string>> {
  const [header, ...rows] = parseCsv(text);
  if (!header) return [];
  return rows
    .filter((r) => r.length > 1 || r[0] !== "")
    .map((r) => Object.fromEntries(header.map((h, i) => [h.trim(), r[i] ?? ""])));
}

/**
 * Re-joins names that a broken export split at their comma: `"""Allentown"," Allegany"""` reads as
 * the two fields `"Allentown` and ` Allegany"`. A field opening with a stray quote swallows the
 * following fields up to the one closing it.
 */
export function rejoinSplitFields(fields: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < fields.length; i++) {
    let f = fields[i]!;
    if (f.startsWith('"') && !f.endsWith('"')) {
      let j = i + 1;
      while (j < fields.length && !fields[j]!.endsWith('"')) j++;
      if (j < fields.length) {
        f = fields.slice(i, j + 1).join(",");
        i = j;
      }
    }
    out.push(f.replace(/^"+|"+$/g, "").trim());
  }
  return out;
}
