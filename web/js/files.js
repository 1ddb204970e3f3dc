// @ts-check
// Imported by the wasm glue (wasm-bindgen snippet): the files of a drop, with
// dropped folders walked (the browser only offers folders through callbacks),
// and raw deflate both ways by the browser's own zlib, for share links and
// zips (the page then needs no deflate code of its own).

/** Resolves to the raw deflate (RFC 1951) of `bytes`. */
export async function deflateRaw(bytes) {
  const packed = new Blob([bytes]).stream().pipeThrough(new CompressionStream("deflate-raw"));
  return new Uint8Array(await new Response(packed).arrayBuffer());
}

/**
 * Resolves to what the raw deflate `bytes` inflates to, or to null once it
 * passes `limit` bytes (a "decompression bomb" stops there). Rejects if
 * `bytes` is not a whole raw deflate stream.
 */
export async function inflateRaw(bytes, limit) {
  const reader = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw")).getReader();
  const chunks = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > limit) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

/**
 * Resolves to `[path, File]` pairs: a dropped file by its name, a file inside a
 * dropped folder by its path from that folder's parent (`repo/data/common.yaml`)
 * when `keep(path)` says so. Hidden folders (`.git`) are not entered. Rejects
 * past `maxFiles` files.
 *
 * Must be called while the drop event is being handled: the browser empties
 * the transfer afterwards.
 */
export function droppedFiles(transfer, keep, maxFiles) {
  const entries = [...transfer.items].map((i) => i.webkitGetAsEntry?.()).filter(Boolean);
  const files = [...transfer.files];
  return (async () => {
    if (entries.length === 0) return files.map((f) => [f.name, f]);
    const out = [];
    const walk = async (entry, top) => {
      const path = entry.fullPath.replace(/^\//, "");
      if (entry.isFile && (top || keep(path))) {
        if (out.length === maxFiles) throw new Error(`it holds more than the ${maxFiles} files the playground takes`);
        out.push([path, await new Promise((ok, fail) => entry.file(ok, fail))]);
      } else if (entry.isDirectory && !entry.name.startsWith(".")) {
        const reader = entry.createReader();
        // readEntries returns a folder in batches, and an empty one at the end.
        for (;;) {
          const batch = await new Promise((ok, fail) => reader.readEntries(ok, fail));
          if (batch.length === 0) break;
          for (const e of batch) await walk(e, false);
        }
      }
    };
    for (const e of entries) await walk(e, true);
    return out;
  })();
}

/** The Web Lock this tab holds on its work, and how to let it go. */
let held = null;

/**
 * Holds a Web Lock on the work `id` for as long as this tab shows it (letting
 * go of the one held before); resolves to false when another tab holds it.
 * Without Web Locks, every tab may keep the work.
 */
export function holdWork(id) {
  if (held?.id === id) return Promise.resolve(true);
  held?.release();
  held = null;
  if (!navigator.locks) return Promise.resolve(true);
  return new Promise((answer) => {
    navigator.locks.request(`hiera-playground/work/${id}`, { ifAvailable: true }, (lock) => {
      if (!lock) {
        answer(false);
        return undefined;
      }
      answer(true);
      return new Promise((release) => {
        held = { id, release };
      });
    });
  });
}
