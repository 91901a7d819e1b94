// A tiny HTTPS front for a local instance, for the W3C test suites: they reach implementations over
// HTTPS only (their HTTP path drops the endpoint's headers, so the API token would not be sent).
//
//   node scripts/w3c-suites/tls-proxy.mjs <listen-port> <target-url> <key.pem> <cert.pem>
//
// Every request is passed to the target unchanged (method, path, headers, body), so the Host header
// keeps the public https://localhost:<listen-port> the instance's PUBLIC_URL names.
//
// The public verify endpoints are rate-limited per client address, and the suites send hundreds of
// requests in a row without retrying: a 429 is retried here after its Retry-After, so the suites
// meet the limit as it is configured instead of failing on it (each retry is counted in the log).
import { readFileSync } from "node:fs";
import http from "node:http";
import https from "node:https";

const [listenPort, target, keyFile, certFile] = process.argv.slice(2);
if (!listenPort || !target || !keyFile || !certFile) {
  console.error("Usage: node scripts/w3c-suites/tls-proxy.mjs <listen-port> <target-url> <key.pem> <cert.pem>");
  process.exit(2);
}
const upstream = new URL(target);
const MAX_ATTEMPTS = 20;
const MAX_WAIT_SECONDS = 10;
let retries = 0;

function readAll(stream) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    stream.on("data", (chunk) => chunks.push(chunk));
    stream.on("end", () => resolve(Buffer.concat(chunks)));
    stream.on("error", reject);
  });
}

function forward(req, body) {
  return new Promise((resolve, reject) => {
    const outgoing = http.request(
      {
        hostname: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, "x-forwarded-proto": "https" },
      },
      resolve,
    );
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

const server = https.createServer({ key: readFileSync(keyFile), cert: readFileSync(certFile) }, async (req, res) => {
  try {
    const body = await readAll(req);
    for (let attempt = 1; ; attempt++) {
      const answer = await forward(req, body);
      if (answer.statusCode === 429 && attempt < MAX_ATTEMPTS) {
        answer.resume();
        const wait = Math.min(Number(answer.headers["retry-after"]) || 1, MAX_WAIT_SECONDS);
        retries++;
        if (retries % 25 === 1) console.log(`tls-proxy: rate-limited, retrying (${retries} retries so far)`);
        await new Promise((resolve) => setTimeout(resolve, wait * 1000));
        continue;
      }
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
      return;
    }
  } catch (error) {
    if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
    res.end(`tls-proxy: ${error instanceof Error ? error.message : String(error)}\n`);
  }
});

server.listen(Number(listenPort), "127.0.0.1", () => {
  console.log(`tls-proxy: https://localhost:${listenPort} -> ${upstream.origin}`);
});
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.once(signal, () => {
    console.log(`tls-proxy: stopping after ${retries} rate-limit retries`);
    server.close(() => process.exit(0));
    setTimeout(() => process.exit(0), 2000).unref();
  });
}
