// Precompresses the built app for the server (issue 18: static assets served compressed): next to every text file
// of web/dist worth compressing, `<file>.br` (Brotli, best quality) and `<file>.gz` (gzip, level 9), each kept only
// when smaller. The server picks one by the request's Accept-Encoding; compressing once here costs nothing per request.
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const TEXT = /\.(js|mjs|css|html|svg|json|txt|webmanifest|xml)$/;
const MIN_BYTES = 1024;

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else yield path;
  }
}

const dist = new URL("../dist/", import.meta.url).pathname;
let written = 0;
for (const path of files(dist)) {
  if (!TEXT.test(path)) continue;
  const data = readFileSync(path);
  if (data.length < MIN_BYTES) continue;
  const variants = [
    [".br", brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: data.length } })],
    [".gz", gzipSync(data, { level: 9 })],
  ];
  for (const [extension, packed] of variants) {
    if (packed.length < data.length) {
      writeFileSync(path + extension, packed);
      written += 1;
    }
  }
}
console.log(`precompressed ${written} files in ${dist}`);
