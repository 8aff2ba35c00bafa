// A local OpenAI-wire provider for benches: POST /v1/chat/completions answers a chat.completion (or,
// with `stream: true`, its SSE chunks ending with a usage chunk and [DONE]) after `delayMs`, with
// fixed usage so every call has a known price (gpt-4o-mini in schemas/models.json). A prompt that
// contains `poison` is refused with a 400 (not retryable: a batch item goes to the dead letter).
import { createServer } from 'node:http';

export async function startFakeOpenAI({ delayMs = 30, promptTokens = 10, completionTokens = 20 } = {}) {
  let calls = 0;
  const server = createServer((request, response) => {
    let raw = '';
    request.setEncoding('utf8');
    request.on('data', (chunk) => (raw += chunk));
    request.on('end', () => {
      calls += 1;
      let body;
      try {
        body = JSON.parse(raw);
      } catch {
        body = {};
      }
      const send = () => {
        if (JSON.stringify(body.messages ?? []).includes('poison')) {
          response.writeHead(400, { 'content-type': 'application/json' });
          response.end(JSON.stringify({ error: { message: 'poisoned prompt', type: 'invalid_request_error', code: 'poison' } }));
          return;
        }
        const id = `chatcmpl-${calls}`;
        const model = body.model ?? 'gpt-4o-mini';
        const created = Math.floor(Date.now() / 1000);
        const usage = { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens };
        if (body.stream === true) {
          response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
          const chunk = (choices, extra = {}) => `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices, ...extra })}\n\n`;
          response.write(chunk([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }]));
          response.write(chunk([{ index: 0, delta: { content: 'ok from the fake' }, finish_reason: null }]));
          response.write(chunk([{ index: 0, delta: {}, finish_reason: 'stop' }]));
          response.write(chunk([], { usage }));
          response.end('data: [DONE]\n\n');
          return;
        }
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({
            id,
            object: 'chat.completion',
            created,
            model,
            choices: [{ index: 0, message: { role: 'assistant', content: 'ok from the fake' }, finish_reason: 'stop' }],
            usage,
          }),
        );
      };
      setTimeout(send, delayMs);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    calls: () => calls,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
