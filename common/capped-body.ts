/**
 * Reading a body stream with a size cap (request bodies on the API, airline responses in ingest):
 * past the cap the stream is cancelled and the caller's error thrown, so an oversized body costs at
 * most `cap` bytes of memory.
 */
export async function readCapped(
  body: ReadableStream<Uint8Array> | null,
  cap: number,
  tooBig: () => Error,
): Promise<Uint8Array> {
  if (!body) return new Uint8Array();
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > cap) {
      await reader.cancel();
      throw tooBig();
    }
    chunks.push(value);
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.byteLength;
  }
  return all;
}
