// A bare node:http JSON echo: parses the JSON body and answers it back. The ceiling a Node HTTP
// service can reach on this machine, measured with the same load as the service (decide-bench).
// Run as its own process; prints its port on stdout. WORK_US > 0 adds that many microseconds of
// synchronous CPU work per request (a busy loop: no allocation, no I/O), to calibrate what a given
// per-request cost allows on this machine under the same load.
import { createServer } from 'node:http';

const workNs = BigInt(Math.round(Number(process.env.WORK_US ?? 0) * 1000));

function work() {
  const until = process.hrtime.bigint() + workNs;
  while (process.hrtime.bigint() < until);
}

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    let body;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
    } catch {
      res.writeHead(400).end();
      return;
    }
    if (workNs > 0n) work();
    const answer = JSON.stringify({ echo: body });
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(answer) });
    res.end(answer);
  });
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
