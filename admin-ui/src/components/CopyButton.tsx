import { useState } from 'react';

/** Copies `text` to the clipboard; says whether it worked (the value stays selectable either way). */
export function CopyButton({ text, label = 'Copy' }: { readonly text: string; readonly label?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = async (): Promise<void> => {
    try {
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      setState('failed');
    }
  };
  return (
    <span className="copy">
      <button type="button" onClick={() => void copy()}>
        {label}
      </button>
      <span role="status" className="copy-state">
        {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy not allowed: select the text and copy it' : ''}
      </span>
    </span>
  );
}
