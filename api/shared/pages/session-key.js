/**
 * The product key a page asks for: kept in sessionStorage (this tab, until it closes), sent only as
 * a header (or the compat surface's query) to relative URLs, never written to the console or the
 * page URL.
 */

/** Binds a key input and its "forget" button to the tab's session storage; returns a getter. */
export function sessionKey(product, input, forget) {
  const slot = `portolan.${product}.key`;
  input.value = sessionStorage.getItem(slot) ?? "";
  input.addEventListener("change", () => {
    const key = input.value.trim();
    if (key) sessionStorage.setItem(slot, key);
    else sessionStorage.removeItem(slot);
  });
  forget.addEventListener("click", () => {
    sessionStorage.removeItem(slot);
    input.value = "";
  });
  return () => {
    const key = input.value.trim();
    if (key) sessionStorage.setItem(slot, key);
    return key;
  };
}
