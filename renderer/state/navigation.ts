/**
 * Ways to reach another area's content from anywhere (a search result, the offline copy's failed
 * reads) without importing that area: the area provides the way in, the composition root
 * (App.svelte) hands it over here, and any view asks here.
 */

/** Opens a page of a site; answers false when the person stayed where they were. */
export type PageOpener = (siteId: string, route: string, lang?: string) => Promise<boolean>;

let pageOpener: PageOpener | null = null;

export function providePageOpener(open: PageOpener): void {
  pageOpener = open;
}

/** Opens a page of any site (its tab, its Pages area, the page in the editor). `lang` '' is the default language. */
export function goToPage(siteId: string, route: string, lang = ''): Promise<boolean> {
  if (!pageOpener) return Promise.resolve(false);
  return pageOpener(siteId, route, lang);
}
