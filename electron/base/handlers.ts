/**
 * The shape of a handler table. Each area maps its own channels (contract/<area>.ts) to its service
 * in `<area>/handlers.ts`, typed `HandlersOf<typeof <area>Channels>`, and the composition root
 * (core/host.ts) spreads the slices into the one `Handlers` table the dispatcher serves. It sits in
 * base/ so the area folders can use it without importing the composition root above them.
 */
import type * as v from 'valibot';
import type { ChannelDef, Channels } from '../contract';

type AnyChannels = Record<string, ChannelDef<v.GenericSchema, unknown>>;

/** One handler per channel of `C`: it gets the input as its schema parsed it and answers the channel's output. */
export type HandlersOf<C extends AnyChannels> = {
  [K in keyof C]: (input: v.InferOutput<C[K]['input']>) => Promise<NonNullable<C[K]['__output']>> | NonNullable<C[K]['__output']>;
};

/** Every channel's handler: what the dispatcher serves. */
export type Handlers = HandlersOf<Channels>;

/** A service as a handler slice reaches it: at call time, so a Host whose database failed to open answers each call with the reason. */
export type Lazy<T> = () => T;
