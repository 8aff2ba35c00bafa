import { useEffect, useRef, useState } from 'preact/hooks';
import { readServerSentEvents } from '../api/read-server-sent-events';
import { FormError } from '../components/form-error';
import { useResource } from '../components/use-resource';
import { useDashboard } from '../session/dashboard-context';

interface StreamMeta {
  readonly provider?: string;
  readonly model?: string;
  readonly usage?: { inputTokens?: number; outputTokens?: number; totalTokens?: number };
  readonly finishReason?: string;
  readonly responseTime?: number;
}

/** Streams a completion through the service (POST /api/stream, server-sent events), recorded as one of the merchant's LLM calls. */
export function PlaygroundPage() {
  const { api } = useDashboard();
  const status = useResource(() => api.genai.providerStatus(), []);
  const [provider, setProvider] = useState('auto');
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

  const providers = status.resource.state === 'ready' ? Object.entries(status.resource.data.providers).filter(([, state]) => state.available).map(([name]) => name) : [];

  const submit = async (event: Event) => {
    event.preventDefault();
    controller.current?.abort();
    const current = new AbortController();
    controller.current = current;
    setOutput('');
    setMeta(undefined);
    setError(undefined);
    setPhase('streaming');
    try {
      const body = await api.genai.stream(
        {
          input: { text: prompt },
          ...(provider !== 'auto' ? { provider } : {}),
          ...(model.trim() !== '' ? { model: model.trim() } : {}),
          ...(system.trim() !== '' ? { systemPrompt: system } : {}),
          temperature: Number(temperature),
          maxTokens: Number(maxTokens),
          disableTools: true,
        },
        current.signal,
      );
      for await (const message of readServerSentEvents(body)) {
        const data = JSON.parse(message.data) as { type: string; content?: string; error?: string } & StreamMeta;
        if (data.type === 'start') setMeta({ provider: data.provider, model: data.model });
        else if (data.type === 'chunk') setOutput((text) => text + (data.content ?? ''));
        else if (data.type === 'complete') setMeta(data);
        else if (data.type === 'error') setError(data.error ?? 'the stream failed');
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
            <label for="pg-provider">Provider</label>
            <select id="pg-provider" value={provider} onChange={(event) => setProvider(event.currentTarget.value)}>
              <option value="auto">auto{status.resource.state === 'ready' && status.resource.data.bestProvider !== null ? ` (${status.resource.data.bestProvider})` : ''}</option>
              {providers.map((name) => (
                <option key={name}>{name}</option>
              ))}
            </select>
          </div>
          <div class="field">
            <label for="pg-model">Model (empty: the provider's default)</label>
            <input id="pg-model" value={model} onInput={(event) => setModel(event.currentTarget.value)} />
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
        {status.resource.state === 'ready' && providers.length === 0 && <p class="state state-empty">No provider is configured on this service: set a provider key (e.g. OPENAI_API_KEY) and restart it.</p>}
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
            {meta.usage !== undefined && (
              <>
                <dt>Tokens (in / out)</dt>
                <dd>
                  {meta.usage.inputTokens ?? 0} / {meta.usage.outputTokens ?? 0}
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
