/**
 * What browser mode's WebSocket server needs from the Host: a line per page, text frames both ways.
 * The Host may be in this process (`inProcessBridge`: tests, benchmarks) or in a child process the
 * server supervises (electron/web/supervisor.ts), which can die and come back; the server does not
 * know which.
 */
import { BRIDGE_CLOSE } from '../contract/protocol';
import { serveConnection } from '../core/connection';
import { imageOriginsOf } from '../core/image-origins';
import type { HostEndpoint } from '../core/host-types';

/** The page's side of a line, as the Host side sees it. */
export interface PageEnd {
  send(frame: string): void;
  /** Close the page's socket: the Host behind it went away (the page reconnects by itself). */
  end(code: number, reason: string): void;
}

/** One page's line to the Host. */
export interface BridgeLine {
  receive(frame: string): void;
  close(): void;
}

export const CLOSE_HOST_RESTARTING = BRIDGE_CLOSE.restarting;
export const CLOSE_HOST_STOPPED = BRIDGE_CLOSE.stopped;

/** Whether a Host can take a new page: it is there, it keeps stopping, or it did not come back in time. */
export type HostAvailability = 'ready' | 'stopped' | 'unavailable';

export interface HostBridge {
  /** Resolves once a Host can take a new page (a restarting Host is waited for, within a bound). */
  available(): Promise<HostAvailability>;
  /** A line for one page, or null when no Host is there to serve it after all (the page retries). */
  open(page: PageEnd): BridgeLine | null;
  /** The person asked to start a Host that kept stopping again. */
  retry?(): void;
  /** The configured sites' origins, for the page's image policy (electron/common/csp.ts); none while no Host answers. */
  imageOrigins(): Promise<readonly string[]>;
}

/** Parses a frame from a page; anything that is not JSON is null (ignored, like any malformed frame). */
export function parseFrame(frame: string): unknown {
  try {
    return JSON.parse(frame);
  } catch {
    return null;
  }
}

/** Serves `host`, running in this process, to every page. */
export function inProcessBridge(host: HostEndpoint): HostBridge {
  return {
    available: () => Promise.resolve('ready'),
    imageOrigins: () => imageOriginsOf(host),
    open(page) {
      const conn = serveConnection(host, (msg) => page.send(JSON.stringify(msg)));
      return {
        receive(frame) {
          const msg = parseFrame(frame);
          if (msg !== null) void conn.receive(msg); // never rejects: an answer it cannot send is an error answer
        },
        close: () => conn.close(),
      };
    },
  };
}
