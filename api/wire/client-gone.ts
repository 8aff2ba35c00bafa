import type { FastifyReply } from 'fastify';

/** Why a gateway call was cancelled: its client went away first (not our failure, nobody to answer). */
export class ClientGone extends Error {
  constructor() {
    super('client disconnected');
    this.name = 'ClientGone';
  }
}

/** An abort signal for the provider call that fires when the client goes away before the answer; `finish` once answered. */
function abortWhenClientLeaves(reply: FastifyReply): { readonly signal: AbortSignal; finish(): void } {
  const controller = new AbortController();
  let finished = false;
  reply.raw.once('close', () => {
    if (!finished) controller.abort(new ClientGone());
  });
  return {
    signal: controller.signal,
    finish: () => {
      finished = true;
    },
  };
}

/**
 * Runs a gateway call with a signal that fires when the client leaves before the answer, and
 * disarms it once the call has settled. `clientGone` tells a streaming writer to stop.
 */
export async function whileClientStays<T>(reply: FastifyReply, call: (signal: AbortSignal, clientGone: () => boolean) => Promise<T>): Promise<T> {
  const client = abortWhenClientLeaves(reply);
  try {
    return await call(client.signal, () => client.signal.aborted);
  } finally {
    client.finish();
  }
}
