// A static file server for the release build, so the end-to-end tests need nothing
// beyond node itself.
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { gzipSync } from "node:zlib";

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".wasm": "application/wasm",
  ".json": "application/json",
  ".svg": "image/svg+xml",
};

/** Serves `root` on 127.0.0.1 at a free port, gzipped to a client that takes it,
 * as any static host serves the page; resolves to { url, close }. */
export async function serve(root) {
  const base = path.resolve(root);
  const gzipped = new Map();
  const server = createServer(async (request, response) => {
    const pathname = decodeURIComponent(new URL(request.url, "http://localhost").pathname);
    const file = path.join(base, pathname.endsWith("/") ? `${pathname}index.html` : pathname);
    if (!file.startsWith(base + path.sep)) {
      response.writeHead(403).end();
      return;
    }
    try {
      const body = await readFile(file);
      const type = TYPES[path.extname(file)] ?? "application/octet-stream";
      if (/\bgzip\b/.test(request.headers["accept-encoding"] ?? "")) {
        const key = `${file}:${body.length}`;
        if (!gzipped.has(key)) gzipped.set(key, gzipSync(body, { level: 9 }));
        response.writeHead(200, { "content-type": type, "content-encoding": "gzip" }).end(gzipped.get(key));
      } else {
        response.writeHead(200, { "content-type": type }).end(body);
      }
    } catch {
      response.writeHead(404).end();
    }
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
