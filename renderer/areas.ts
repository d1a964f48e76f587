/**
 * The area registry: the areas a site has, per kind, in the order the pane lists them, each with
 * the loader of its view. AreaView opens whatever `load` gives; an area without one shows where it
 * will be. Adding an area is a folder under views/ and one line here. It imports every view, so it
 * stands above them: main.ts hands it to state/area-registry.ts, where the views read it. Whether
 * an area may be opened goes by the account (state/area-selection.svelte.ts).
 */
import type { AreaRegistry } from './state/area-registry';
import FileText from '@lucide/svelte/icons/file-text';
import Languages from '@lucide/svelte/icons/languages';
import Image from '@lucide/svelte/icons/image';
import Images from '@lucide/svelte/icons/images';
import CloudUpload from '@lucide/svelte/icons/cloud-upload';
import Users from '@lucide/svelte/icons/users';
import Settings from '@lucide/svelte/icons/settings';
import Package from '@lucide/svelte/icons/package';
import Server from '@lucide/svelte/icons/server';
import Puzzle from '@lucide/svelte/icons/puzzle';
import LayoutDashboard from '@lucide/svelte/icons/layout-dashboard';
import CalendarClock from '@lucide/svelte/icons/calendar-clock';
import Webhook from '@lucide/svelte/icons/webhook';
import ScrollText from '@lucide/svelte/icons/scroll-text';
import Mail from '@lucide/svelte/icons/mail';
import PawPrint from '@lucide/svelte/icons/paw-print';
import Receipt from '@lucide/svelte/icons/receipt';
import Warehouse from '@lucide/svelte/icons/warehouse';

export const AREAS: AreaRegistry = {
  cms: [
    { id: 'pages', label: 'Pages', icon: FileText, load: () => import('./views/pages/PagesArea.svelte') },
    { id: 'translations', label: 'Translations', icon: Languages, load: () => import('./views/translations/TranslationsArea.svelte') },
    { id: 'media', label: 'Media', icon: Image, load: () => import('./views/media/MediaArea.svelte') },
    { id: 'library', label: 'Media library', icon: Images, load: () => import('./views/library/LibraryArea.svelte') },
    /** Local changes not on the site yet (drafts and the outbox); not a permission of the site's. */
    { id: 'changes', label: 'Changes', icon: CloudUpload, load: () => import('./views/sync/ChangesArea.svelte') },
    { id: 'users', label: 'Users', icon: Users, load: () => import('./views/users/UsersArea.svelte') },
    { id: 'settings', label: 'Settings', icon: Settings, load: () => import('./views/settings/SettingsArea.svelte') },
    { id: 'packages', label: 'Packages', icon: Package, load: () => import('./views/packages/PackagesArea.svelte') },
    { id: 'system', label: 'System', icon: Server, load: () => import('./views/system/SystemArea.svelte') },
    { id: 'dashboard', label: 'Dashboard', icon: LayoutDashboard, load: () => import('./views/dashboard/DashboardArea.svelte') },
    { id: 'scheduler', label: 'Scheduler', icon: CalendarClock, load: () => import('./views/scheduler/SchedulerArea.svelte') },
    { id: 'webhooks', label: 'Webhooks', icon: Webhook, load: () => import('./views/webhooks/WebhooksArea.svelte') },
    { id: 'audit', label: 'Audit trail', icon: ScrollText, load: () => import('./views/audit/AuditArea.svelte') },
    { id: 'mailer', label: 'Mailer', icon: Mail, load: () => import('./views/mailer/MailerArea.svelte') },
    /** A plugin's page, opened from the plugin's entries in the area list (views/addons). */
    { id: 'addons', label: 'Plugin page', icon: Puzzle, hidden: true, load: () => import('./views/addons/PluginPageArea.svelte') },
  ],
  store: [
    { id: 'pets', label: 'Pets', icon: PawPrint, load: () => import('./views/store/PetsArea.svelte') },
    { id: 'orders', label: 'Orders', icon: Receipt, load: () => import('./views/store/OrdersArea.svelte') },
    { id: 'users', label: 'Users', icon: Users, load: () => import('./views/store/UsersArea.svelte') },
    { id: 'inventory', label: 'Inventory', icon: Warehouse, load: () => import('./views/store/InventoryArea.svelte') },
  ],
};
