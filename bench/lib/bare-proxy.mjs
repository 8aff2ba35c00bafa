// The floor of a Node gateway: a bare node:http pass-through proxy (its own process) that reads the
// request body, sends it to UPSTREAM on pooled keep-alive connections and relays the answer as it
// arrives. No auth, no parsing, no routing, no records: what any gateway written for Node adds at least.
// Prints its port on stdout.
import { Agent, createServer, request } from 'node:http';

const upstream = new URL(process.env.UPSTREAM);
const agent = new Agent({ keepAlive: true, maxSockets: 256 });

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const body = Buffer.concat(chunks);
    const forward = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        path: req.url,
        method: req.method,
        agent,
        headers: {
          'content-type': req.headers['content-type'] ?? 'application/json',
          'content-length': body.length,
          authorization: req.headers.authorization ?? '',
        },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, { 'content-type': answer.headers['content-type'] ?? 'application/json' });
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.writeHead(502).end());
    forward.end(body);
  });
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
