/**
 * The utility process's entry (out/host/host.cjs): starts the Host there with Electron's
 * `net.fetch` (system proxies, PAC). A function cannot cross the process boundary, so it is taken
 * inside the utility process; main (electron/utility.ts) only forks this file.
 */
import { net } from 'electron';
import { runHostProcess } from './host-process';

runHostProcess({ fetch: net.fetch.bind(net) as typeof fetch });
