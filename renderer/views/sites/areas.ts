/**
 * The areas a site will have, per kind, in the order the pane lists them. Issue 2 shows them
 * disabled; later issues fill in `available` per account permissions and route to each view.
 */
import type { LucideIcon } from '@lucide/svelte';
import type { SiteKind } from '../../../electron/contract/index';
import FileText from '@lucide/svelte/icons/file-text';
import Languages from '@lucide/svelte/icons/languages';
import Image from '@lucide/svelte/icons/image';
import CloudUpload from '@lucide/svelte/icons/cloud-upload';
import Users from '@lucide/svelte/icons/users';
import Package from '@lucide/svelte/icons/package';
import LayoutDashboard from '@lucide/svelte/icons/layout-dashboard';
import CalendarClock from '@lucide/svelte/icons/calendar-clock';
import Webhook from '@lucide/svelte/icons/webhook';
import ScrollText from '@lucide/svelte/icons/scroll-text';
import Mail from '@lucide/svelte/icons/mail';
import PawPrint from '@lucide/svelte/icons/paw-print';
import Receipt from '@lucide/svelte/icons/receipt';
import Warehouse from '@lucide/svelte/icons/warehouse';

export interface AreaDef {
  /** Stable id, also the folder under views/ that will implement it. */
  id: string;
  label: string;
  icon: LucideIcon;
}

export const AREAS: Record<SiteKind, readonly AreaDef[]> = {
  cms: [
    { id: 'pages', label: 'Pages', icon: FileText },
    { id: 'translations', label: 'Translations', icon: Languages },
    { id: 'media', label: 'Media', icon: Image },
    /** Local changes not on the site yet (drafts and the outbox); not a permission of the site's. */
    { id: 'changes', label: 'Changes', icon: CloudUpload },
    { id: 'users', label: 'Users', icon: Users },
    { id: 'packages', label: 'Packages', icon: Package },
    { id: 'dashboard', label: 'Dashboard', icon: LayoutDashboard },
    { id: 'scheduler', label: 'Scheduler', icon: CalendarClock },
    { id: 'webhooks', label: 'Webhooks', icon: Webhook },
    { id: 'audit', label: 'Audit', icon: ScrollText },
    { id: 'mailer', label: 'Mailer', icon: Mail },
  ],
  store: [
    { id: 'pets', label: 'Pets', icon: PawPrint },
    { id: 'orders', label: 'Orders', icon: Receipt },
    { id: 'users', label: 'Users', icon: Users },
    { id: 'inventory', label: 'Inventory', icon: Warehouse },
  ],
};

export const KIND_LABEL: Record<SiteKind, string> = { cms: 'CMS site', store: 'Store' };
export const AUTH_LABEL = { password: 'Password', apikey: 'API key' } as const;
