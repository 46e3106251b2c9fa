/** DOM and fetch helpers shared by the product pages. */

/** The message of an error envelope of any product (or the HTTP status when there is none). */
export async function failure(res) {
  try {
    const body = await res.json();
    return body?.error?.message ?? body?.message ?? `HTTP ${res.status}`;
  } catch {
    return `HTTP ${res.status}`;
  }
}

/** Text-only DOM building: every value the API returns goes in as text, never as markup. */
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") node.className = String(v);
    else node.setAttribute(k, String(v));
  }
  for (const c of children.flat()) {
    if (c === undefined || c === null || c === false) continue;
    node.append(c instanceof Node ? c : String(c));
  }
  return node;
}
