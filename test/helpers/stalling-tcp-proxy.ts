import { createServer, connect, type AddressInfo, type Socket } from 'node:net';

/**
 * A TCP proxy in front of a real server whose client → server direction can be stalled: while
 * stalled, what clients send is held (not dropped) and the server sees nothing, exactly like a
 * network path that stopped moving; `resume()` delivers what was held, in order. Lets a test make a
 * real store slow on demand without sleeping and without touching the shared server.
 */
export interface StallingProxy {
  /** host:port clients connect to (`redis://127.0.0.1:<port>`-ready). */
  readonly port: number;
  stall(): void;
  resume(): void;
  /** Bytes clients sent while stalled that the server has not seen yet. */
  heldBytes(): number;
  close(): Promise<void>;
}

export async function startStallingProxy(target: { readonly host: string; readonly port: number }): Promise<StallingProxy> {
  let stalled = false;
  const held: { upstream: Socket; chunk: Buffer }[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(target);
    sockets.add(client);
    sockets.add(upstream);
    client.on('data', (chunk: Buffer) => {
      if (stalled) held.push({ upstream, chunk });
      else upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => client.write(chunk));
    const closeBoth = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('close', closeBoth);
    upstream.on('close', closeBoth);
    client.on('error', closeBoth);
    upstream.on('error', closeBoth);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    stall: () => {
      stalled = true;
    },
    resume: () => {
      stalled = false;
      for (const { upstream, chunk } of held.splice(0)) upstream.write(chunk);
    },
    heldBytes: () => held.reduce((total, entry) => total + entry.chunk.length, 0),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
