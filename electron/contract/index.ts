/**
 * The IPC contract: every channel the renderer may invoke and every event the Host may emit, and
 * the types they carry, imported by both sides. Each area declares its own channels and events in
 * contract/<area>.ts (`<area>Channels`, `<area>Events`); this file only assembles them, one line
 * per area. Nothing in this folder may use Node or the DOM.
 */
import type * as v from 'valibot';
import type { ChannelDef, EventDef } from './define';
import { appChannels, appEvents } from './app';
import { sitesChannels, sitesEvents } from './sites';
import { authChannels, authEvents } from './auth';
import { pagesChannels, pagesEvents } from './pages';
import { translationsChannels, translationsEvents } from './translations';
import { mediaChannels, mediaEvents } from './media';
import { blueprintsChannels, blueprintsEvents } from './blueprints';
import { draftsChannels, draftsEvents } from './drafts';
import { mirrorChannels, mirrorEvents } from './mirror';
import { searchChannels, searchEvents } from './search';
import { workspaceChannels, workspaceEvents } from './workspace';
import { storeChannels, storeEvents } from './store';
import { databaseChannels, databaseEvents } from './database';
import { settingsChannels, settingsEvents } from './settings';
import { usersChannels, usersEvents } from './users';
import { libraryChannels, libraryEvents } from './library';
import { packagesChannels, packagesEvents } from './packages';
import { addonsChannels, addonsEvents } from './addons';
import { systemChannels, systemEvents } from './system';
import { scriptsChannels, scriptsEvents } from './plugin-scripts';
import { schedulerChannels, schedulerEvents } from './scheduler';
import { dashboardChannels, dashboardEvents } from './dashboard';
import { overviewChannels, overviewEvents } from './overview';
import { demoChannels, demoEvents } from './demo';
import { webhooksChannels, webhooksEvents } from './webhooks';
import { auditChannels, auditEvents } from './audit';
import { auditCopyChannels, auditCopyEvents } from './audit-copy';
import { mailerChannels, mailerEvents } from './mailer';
import { aboutChannels, aboutEvents } from './about';

export * from './errors';
export * from './app';
export * from './sites';
export * from './auth';
export * from './permissions';
export * from './header';
export * from './names';
export * from './text';
export * from './header-patch';
export * from './pages';
export * from './translations';
export * from './media';
export * from './blueprints';
export * from './drafts';
export * from './mirror';
export * from './search';
export * from './workspace';
export * from './store';
export * from './database';
export * from './settings';
export * from './users';
export * from './library';
export * from './packages';
export * from './addons';
export * from './system';
export * from './plugin-scripts';
export * from './scheduler';
export * from './dashboard';
export * from './overview';
export * from './demo';
export * from './webhooks';
export * from './audit-event';
export * from './audit';
export * from './audit-copy';
export * from './mailer-common';
export * from './mailer-subscribers';
export * from './mailer-imports';
export * from './mailer-segments';
export * from './mailer-campaigns';
export * from './mail-drafts';
export * from './mailer-reports';
export * from './mailer-flows';
export * from './mailer';
export * from './about';
export type { ChannelDef, EventDef } from './define';

/** Every channel, one spread per area (each area declares its own in contract/<area>.ts). */
export const channels = {
  ...appChannels,
  ...sitesChannels,
  ...authChannels,
  ...pagesChannels,
  ...translationsChannels,
  ...mediaChannels,
  ...blueprintsChannels,
  ...draftsChannels,
  ...mirrorChannels,
  ...searchChannels,
  ...workspaceChannels,
  ...storeChannels,
  ...databaseChannels,
  ...settingsChannels,
  ...usersChannels,
  ...libraryChannels,
  ...packagesChannels,
  ...addonsChannels,
  ...systemChannels,
  ...scriptsChannels,
  ...schedulerChannels,
  ...dashboardChannels,
  ...overviewChannels,
  ...demoChannels,
  ...webhooksChannels,
  ...auditChannels,
  ...auditCopyChannels,
  ...mailerChannels,
  ...aboutChannels,
} satisfies Record<string, ChannelDef<v.GenericSchema, unknown>>;

/** Every event the Host may emit, one spread per area. */
export const events = {
  ...appEvents,
  ...sitesEvents,
  ...authEvents,
  ...pagesEvents,
  ...translationsEvents,
  ...mediaEvents,
  ...blueprintsEvents,
  ...draftsEvents,
  ...mirrorEvents,
  ...searchEvents,
  ...workspaceEvents,
  ...storeEvents,
  ...databaseEvents,
  ...settingsEvents,
  ...usersEvents,
  ...libraryEvents,
  ...packagesEvents,
  ...addonsEvents,
  ...systemEvents,
  ...scriptsEvents,
  ...schedulerEvents,
  ...dashboardEvents,
  ...overviewEvents,
  ...demoEvents,
  ...webhooksEvents,
  ...auditEvents,
  ...auditCopyEvents,
  ...mailerEvents,
  ...aboutEvents,
} satisfies Record<string, EventDef<unknown>>;

export type Channels = typeof channels;
export type ChannelName = keyof Channels;
export type ChannelInput<K extends ChannelName> = v.InferInput<Channels[K]['input']>;
/** What the handler receives: the schema's output (trimmed strings, defaults applied). */
export type ChannelParsed<K extends ChannelName> = v.InferOutput<Channels[K]['input']>;
export type ChannelOutput<K extends ChannelName> = NonNullable<Channels[K]['__output']>;

export type Events = typeof events;
export type EventName = keyof Events;
export type EventPayload<K extends EventName> = NonNullable<Events[K]['__payload']>;

export const isChannelName = (name: string): name is ChannelName => Object.hasOwn(channels, name);
export const isEventName = (name: string): name is EventName => Object.hasOwn(events, name);
