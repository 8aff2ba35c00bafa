import { useEffect, useRef, useState } from 'preact/hooks';
import { readServerSentEvents } from '../api/read-server-sent-events';
import { FormError } from '../components/form-error';
import { useResource } from '../components/use-resource';
import { useDashboard } from '../session/dashboard-context';

/** What the gateway said of the call: its decision headers, then usage and finish from the chunks. */
interface StreamMeta {
  readonly provider?: string;
  readonly model?: string;
  readonly approach?: string;
  readonly hops?: string;
  readonly usage?: { readonly prompt_tokens?: number; readonly completion_tokens?: number };
  readonly finishReason?: string;
  readonly responseTime?: number;
}

/** One `chat.completion.chunk` of the gateway's stream, or the error object it sends after the start. */
interface ChatChunk {
  readonly choices?: readonly { readonly delta?: { readonly content?: string | null }; readonly finish_reason?: string | null }[];
  readonly usage?: { readonly prompt_tokens?: number; readonly completion_tokens?: number };
  readonly error?: { readonly message?: string };
}

/**
 * Streams a completion through the OpenAI-compatible gateway (POST /v1/chat/completions with
 * `stream: true`), as any OpenAI client would: `model` is provider/model, a registry name or one
 * of the merchant's route groups, and the routing decision comes back in the response headers.
 */
export function PlaygroundPage() {
  const { api } = useDashboard();
  const groups = useResource(() => api.genai.routeGroups(), []);
  const models = useResource(() => api.genai.models(), []);
  const [model, setModel] = useState('');
  const [system, setSystem] = useState('');
  const [prompt, setPrompt] = useState('');
  const [temperature, setTemperature] = useState('0.7');
  const [maxTokens, setMaxTokens] = useState('512');
  const [output, setOutput] = useState('');
  const [meta, setMeta] = useState<StreamMeta | undefined>(undefined);
  const [phase, setPhase] = useState<'idle' | 'streaming' | 'done' | 'stopped'>('idle');
  const [error, setError] = useState<string | undefined>(undefined);
  const controller = useRef<AbortController | null>(null);
  useEffect(() => () => controller.current?.abort(), []);

  const groupNames = groups.resource.state === 'ready' ? groups.resource.data.data.map((group) => group.name) : [];
  const modelIds = models.resource.state === 'ready' ? models.resource.data.models.map((entry) => `${entry.provider}/${entry.id}`) : [];

  const submit = async (event: Event) => {
    event.preventDefault();
    controller.current?.abort();
    const current = new AbortController();
    controller.current = current;
    setOutput('');
    setMeta(undefined);
    setError(undefined);
    setPhase('streaming');
    const started = performance.now();
    try {
      const { body, headers } = await api.genai.streamChat(
        {
          model: model.trim(),
          messages: [...(system.trim() !== '' ? [{ role: 'system' as const, content: system }] : []), { role: 'user' as const, content: prompt }],
          temperature: Number(temperature),
          max_tokens: Number(maxTokens),
        },
        current.signal,
      );
      const decided: StreamMeta = {
        provider: headers.get('x-switchyard-provider') ?? undefined,
        model: headers.get('x-switchyard-model') ?? undefined,
        approach: headers.get('x-switchyard-routing-approach') ?? undefined,
        hops: headers.get('x-switchyard-hops') ?? undefined,
      };
      setMeta(decided);
      let finishReason: string | undefined;
      for await (const message of readServerSentEvents(body)) {
        if (message.data === '[DONE]') break;
        const chunk = JSON.parse(message.data) as ChatChunk;
        if (chunk.error !== undefined) {
          setError(chunk.error.message ?? 'the stream failed');
          continue;
        }
        const choice = chunk.choices?.[0];
        if (choice?.delta?.content) setOutput((text) => text + (choice.delta?.content ?? ''));
        if (choice?.finish_reason) finishReason = choice.finish_reason;
        if (chunk.usage !== undefined)
          setMeta({
            ...decided,
            usage: chunk.usage,
            ...(finishReason !== undefined ? { finishReason } : {}),
            responseTime: Math.round(performance.now() - started),
          });
      }
      setPhase('done');
    } catch (failure) {
      if (current.signal.aborted) {
        setPhase('stopped');
        return;
      }
      setError(failure instanceof Error ? failure.message : String(failure));
      setPhase('idle');
    }
  };

  return (
    <>
      <form class="panel" onSubmit={(event) => void submit(event)} aria-labelledby="prompt-title">
        <h2 id="prompt-title">Prompt</h2>
        <div class="row">
          <div class="field">
            <label for="pg-model">Model (provider/model, a registry name or a route group)</label>
            <input id="pg-model" required list="pg-models" value={model} onInput={(event) => setModel(event.currentTarget.value)} />
            <datalist id="pg-models">
              {groupNames.map((name) => (
                <option key={`group-${name}`} value={name} label="route group" />
              ))}
              {modelIds.map((id) => (
                <option key={id} value={id} />
              ))}
            </datalist>
          </div>
          <div class="field">
            <label for="pg-temperature">Temperature</label>
            <input id="pg-temperature" inputMode="decimal" size={5} value={temperature} onInput={(event) => setTemperature(event.currentTarget.value)} />
          </div>
          <div class="field">
            <label for="pg-max">Max tokens</label>
            <input id="pg-max" inputMode="numeric" size={6} value={maxTokens} onInput={(event) => setMaxTokens(event.currentTarget.value)} />
          </div>
        </div>
        <div class="field">
          <label for="pg-system">System prompt</label>
          <textarea id="pg-system" rows={2} value={system} onInput={(event) => setSystem(event.currentTarget.value)} />
        </div>
        <div class="field">
          <label for="pg-prompt">Prompt</label>
          <textarea id="pg-prompt" required rows={4} value={prompt} onInput={(event) => setPrompt(event.currentTarget.value)} />
        </div>
        <div class="actions">
          <button type="submit" class="primary" disabled={phase === 'streaming'}>
            Stream
          </button>
          <button type="button" disabled={phase !== 'streaming'} onClick={() => controller.current?.abort()}>
            Stop
          </button>
        </div>
      </form>
      <section class="panel" aria-labelledby="answer-title">
        <h2 id="answer-title">Answer</h2>
        <FormError error={error} />
        <p class="hint" role="status">
          {phase === 'streaming' ? 'Streaming…' : phase === 'done' ? 'Complete.' : phase === 'stopped' ? 'Stopped.' : 'Nothing streamed yet.'}
        </p>
        <div class="stream-output" data-testid="stream-output" aria-live="polite" aria-busy={phase === 'streaming'}>
          {output}
        </div>
        {meta !== undefined && (
          <dl class="meta-list">
            <dt>Provider / model</dt>
            <dd data-testid="stream-model">
              {meta.provider ?? '—'} / {meta.model ?? '—'}
            </dd>
            <dt>Routing</dt>
            <dd data-testid="stream-routing">
              {meta.approach ?? '—'}, {meta.hops ?? '0'} failover hop(s)
            </dd>
            {meta.usage !== undefined && (
              <>
                <dt>Tokens (in / out)</dt>
                <dd>
                  {meta.usage.prompt_tokens ?? 0} / {meta.usage.completion_tokens ?? 0}
                </dd>
              </>
            )}
            {meta.finishReason !== undefined && (
              <>
                <dt>Finish reason</dt>
                <dd>{meta.finishReason}</dd>
              </>
            )}
            {meta.responseTime !== undefined && (
              <>
                <dt>Response time</dt>
                <dd>{meta.responseTime} ms</dd>
              </>
            )}
          </dl>
        )}
      </section>
    </>
  );
}
