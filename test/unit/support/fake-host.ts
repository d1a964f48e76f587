/**
 * A stand-in Host behind the renderer's transport (the edge the renderer has), for unit tests of
 * the renderer's state classes: a test's subclass holds the data and answers each channel; the
 * base records every call, can hold answers back (a slow site) and turns a thrown error into the
 * Host's refusal. Also `settle()` (let the state's calls finish) and `stubFileReader()` (Node has
 * none; uploads read files as data URLs).
 */
import { flushSync } from 'svelte';
import { vi } from 'vitest';
import { setTransport } from '../../../renderer/lib/client';

export type Handler = (input: Record<string, unknown>) => unknown;

export abstract class FakeHost {
  calls: { channel: string; input: Record<string, unknown> }[] = [];
  /** Answers held back until released (a slow site). */
  held: (() => void)[] = [];
  hold = false;
  /** each channel's answer; a throw is the Host's refusal (its `{ code, message }`) */
  abstract handlers: Record<string, Handler>;

  constructor() {
    setTransport({
      kind: 'browser',
      invoke: async (channel, input) => {
        this.calls.push({ channel, input: input as Record<string, unknown> });
        if (this.hold) await new Promise<void>((go) => this.held.push(go));
        const h = this.handlers[channel];
        if (!h) return { ok: false, error: { code: 'internal', message: `no ${channel} here` } };
        try {
          return { ok: true, value: h(input as Record<string, unknown>) };
        } catch (err) {
          return { ok: false, error: err as { code: 'internal'; message: string } };
        }
      },
      on: () => () => {},
    });
  }
}

/** Lets the state's calls settle (the stand-in answers at once). */
export async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) {
    flushSync();
    await new Promise((r) => setTimeout(r, 0));
  }
}

/** The browser's FileReader data-URL reading, done with Node's own base64 (undo with vi.unstubAllGlobals). */
export function stubFileReader(): void {
  vi.stubGlobal(
    'FileReader',
    class {
      result: string | null = null;
      error: Error | null = null;
      onload: (() => void) | null = null;
      onerror: (() => void) | null = null;
      readAsDataURL(blob: Blob) {
        void blob.arrayBuffer().then((b) => {
          this.result = `data:;base64,${Buffer.from(b).toString('base64')}`;
          this.onload?.();
        });
      }
    },
  );
}
