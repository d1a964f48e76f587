/**
 * The sites' API keys, each read from the keychain once: every request of a site signed in by key
 * carries it, and a mirror of 10,000 pages (or a store's list of pets, page after page) would
 * otherwise ask the keychain each time. One instance per Host (core/host.ts), shared by the CMS and
 * the store sessions, with one set of rules for when a key is read again: the site refused it, the
 * site was edited (the key may have been replaced or removed, or it now belongs to another
 * address) or removed.
 */
import { siteAccount, type SecretStore } from '../secrets/secret-store';

export class ApiKeys {
  /** One read per site, shared by the calls that ask while it is under way. */
  private readonly keys = new Map<string, Promise<string | null>>();
  /** The keys read so far, for the scrubber (api/scrub.ts): text from a site never carries its key. */
  private readonly values = new Map<string, string>();

  constructor(private readonly secrets: SecretStore) {}

  /** The site's key; null when none is stored (asked again next time: one may be added). */
  get(siteId: string): Promise<string | null> {
    const known = this.keys.get(siteId);
    if (known) return known;
    const read: Promise<string | null> = this.secrets.get(siteAccount.apiKey(siteId)).then(
      (key) => {
        if (!key) this.drop(siteId, read);
        else if (this.keys.get(siteId) === read) this.values.set(siteId, key);
        return key;
      },
      (err: unknown) => {
        this.drop(siteId, read);
        throw err;
      },
    );
    this.keys.set(siteId, read);
    return read;
  }

  /** Read the key again next time (refused, edited, or its site removed). */
  forget(siteId: string): void {
    this.keys.delete(siteId);
    this.values.delete(siteId);
  }

  /** The site's key as last read, if any (not a keychain read: for hiding it in a site's text). */
  held(siteId: string): string | null {
    return this.values.get(siteId) ?? null;
  }

  /** A read that came to nothing is forgotten, unless a newer one took its place meanwhile. */
  private drop(siteId: string, read: Promise<string | null>): void {
    if (this.keys.get(siteId) === read) {
      this.keys.delete(siteId);
      this.values.delete(siteId);
    }
  }
}
