import * as v from 'valibot';

/**
 * A channel is declared once: its input schema (checked by the Host before any service sees it)
 * and its output type (a phantom: it exists for the compiler only).
 */
export interface ChannelDef<I extends v.GenericSchema, O> {
  input: I;
  readonly __output?: O;
}

export const channel =
  <O>() =>
  <I extends v.GenericSchema>(input: I): ChannelDef<I, O> => ({ input });

export interface EventDef<P> {
  readonly __payload?: P;
}

export const event = <P>(): EventDef<P> => ({});

/** The input of a channel that takes none. */
export const None = v.optional(v.strictObject({}));
