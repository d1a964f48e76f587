/** The `workspace.*` channels: the open panes (tabs, the focused one, a split and its ratio), kept across restarts. */
import * as v from 'valibot';
import { channel, None } from './define';
import { SiteId } from './sites';
import type { Workspace } from './app';

export const WorkspaceSchema = v.strictObject({
  tabs: v.pipe(v.array(SiteId), v.maxLength(64)),
  active: v.nullable(SiteId),
  split: v.nullable(SiteId),
  ratio: v.pipe(v.number(), v.minValue(0.2), v.maxValue(0.8)),
});

export const workspaceChannels = {
  'workspace.get': channel<Workspace>()(None),
  'workspace.set': channel<Workspace>()(WorkspaceSchema),
};

export const workspaceEvents = {};
