/**
 * The Mailer area's sections, in the order its navigation lists them. Each is a component taking
 * `MailerSectionProps`, loaded when first opened; adding a section is its folder and one line here.
 */
import type { Component } from 'svelte';
import type { MailerPlugin, Site } from '../../../electron/contract/index';

export interface MailerSectionProps {
  site: Site;
  /** The plugin the site runs (its base and its permissions' names). */
  plugin: MailerPlugin;
}

export interface MailerSection {
  id: string;
  label: string;
  /** What the section is for, under its name in the navigation (read by screen readers too). */
  hint: string;
  /** Reading it needs `view`; writing `manage` (the section disables its writes with the reason). */
  load: () => Promise<{ default: Component<MailerSectionProps> }>;
}

export const MAILER_SECTIONS: MailerSection[] = [
  { id: 'subscribers', label: 'Subscribers', hint: 'The people, their lists and consent', load: () => import('./subscribers/SubscribersSection.svelte') },
  { id: 'campaigns', label: 'Campaigns', hint: 'Write, send and follow mailings', load: () => import('./campaigns/CampaignsSection.svelte') },
  { id: 'automations', label: 'Automations', hint: 'Letters and steps that run by themselves', load: () => import('./automations/AutomationsSection.svelte') },
  { id: 'templates', label: 'Templates', hint: 'Mailings to start from', load: () => import('./templates/TemplatesSection.svelte') },
  { id: 'overview', label: 'Overview', hint: 'Growth and what needs doing', load: () => import('./overview/OverviewSection.svelte') },
  { id: 'reports', label: 'Reports', hint: 'Seven reports as tables, charts and CSV', load: () => import('./reports/ReportsSection.svelte') },
  { id: 'deliverability', label: 'Deliverability', hint: 'SPF, DKIM, DMARC; bounces from providers', load: () => import('./deliverability/DeliverabilitySection.svelte') },
  { id: 'imports', label: 'Imports', hint: 'Bring people in from a CSV', load: () => import('./imports/ImportsSection.svelte') },
  { id: 'lists', label: 'Lists and tags', hint: 'The lists people join, and tags', load: () => import('./lists/ListsSection.svelte') },
  { id: 'segments', label: 'Segments', hint: 'Audiences by conditions', load: () => import('./segments/SegmentsSection.svelte') },
  { id: 'suppressions', label: 'Suppressions', hint: 'Addresses never mailed; erasure', load: () => import('./suppressions/SuppressionsSection.svelte') },
];
