import { useState } from 'preact/hooks';

/** Copies `text` to the clipboard and says so (politely, for screen readers too). */
export function CopyButton(props: { readonly text: string; readonly label: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.text);
      setState('copied');
    } catch {
      // No clipboard permission (an insecure origin, a denied prompt): the key stays selectable on screen.
      setState('failed');
    }
  };
  return (
    <>
      <button type="button" onClick={() => void copy()}>
        {props.label}
      </button>
      <span class="hint" role="status">
        {state === 'copied' ? 'Copied.' : state === 'failed' ? 'Copy failed: select the text and copy it.' : ''}
      </span>
    </>
  );
}
