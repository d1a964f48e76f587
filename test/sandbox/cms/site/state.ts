/**
 * The site-wide state beyond pages and accounts: its configuration (config-store.ts) and its media
 * library (media-library.ts), each written to the data folder on first use, so a sandbox that
 * never serves them starts as fast as before.
 */
import type { PageFiles } from '../content/page-files';
import { SiteConfig, type Data } from './config-store';
import { MediaLibrary } from './media-library';
import { seedMedia, type MediaSeedInfo } from './seed-media';

export class SiteState {
  readonly config: SiteConfig;
  readonly media: MediaLibrary;
  /** what media seeding wrote (after first use); null when the folder already had a library */
  mediaSeeded: MediaSeedInfo | null = null;

  constructor(dataDir: string, content: PageFiles) {
    this.config = new SiteConfig(dataDir, () => demoConfig(content));
    this.media = new MediaLibrary(dataDir, (lib) => {
      this.mediaSeeded = seedMedia(lib);
    });
  }
}

/** A demo site's own settings: a title and author of its own, its content languages, a Redis password. */
function demoConfig(content: PageFiles): Record<string, Data> {
  return {
    site: { title: 'Sitedesk Demo', author: { name: 'Ada Admin', email: 'admin@example.test' }, metadata: { description: 'A demo site served by the Sitedesk sandbox' } },
    system: { languages: { supported: [...content.site.languages] }, cache: { driver: 'file', redis: { server: '127.0.0.1:6379', password: 'sandbox-redis-pass' } } },
    'plugins/email': { mailer: { smtp: { server: 'smtp.example.test', port: 587, encryption: 'tls' } } },
    'themes/quark2': { 'accent-color': '#1f6feb' },
  };
}
