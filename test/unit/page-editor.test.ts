/**
 * The editor's session without a browser: opening a page (and the draft kept from before), keeping
 * typed text on this computer, Save's outcomes (on the site, queued, conflicted, refused), and text
 * an editor went away from coming back. The Host is a small stand-in behind the renderer's
 * transport (the edge the renderer has); what the real Host answers is covered by the integration
 * tests of the same channels.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { flushSync } from 'svelte';
import type { DraftInfo, Page } from '../../electron/contract/index';
import { FakeHost, type Handler } from './support/fake-host';
import { EditorSession, FULL_DISK_RETRY_MS, PERSIST_DELAY_MS } from '../../renderer/views/editor/page-editor.svelte';
import { SitePagesState } from '../../renderer/views/pages/pages.svelte';


function page(over: Partial<Page> = {}): Page {
  return {
    route: '/blog/hello',
    title: 'Hello',
    slug: 'hello',
    template: 'default',
    published: true,
    visible: true,
    order: null,
    header: { title: 'Hello' },
    content: 'Hello world.',
    media: [],
    language: null,
    etag: '"v1"',
    ...over,
  } as Page;
}

/** A stand-in Host: the site's page, the draft store, and what each Save's push does. */
class EditorHost extends FakeHost {
  site = page();
  drafts: (DraftInfo & { content: string; header: Record<string, unknown>; template?: string })[] = [];
  /** What the next push does to the draft: reach the site, stop short, or find a conflict or a refusal. */
  push: 'pushed' | 'offline' | 'conflicted' | 'rejected' = 'pushed';
  handlers: Record<string, Handler> = {
    'pages.get': () => structuredClone(this.site),
    'pages.open': () => {
      const d = this.drafts[0];
      return { page: structuredClone(this.site), draft: d ? this.detail(d) : null };
    },
    'translations.languages': () => {
      throw { code: 'not_found', message: 'single language' };
    },
    'blueprints.templates': () => [{ type: 'default', label: 'Default' }],
    'blueprints.page': () => ({ template: 'default', fields: [] }),
    'pages.taxonomy': () => ({}),
    'drafts.get': (i) => {
      const d = this.drafts.find((x) => x.id === i.draftId);
      if (!d) throw { code: 'not_found', message: 'That draft is gone (pushed or discarded).' };
      return this.detail(d);
    },
    'drafts.save': (i) => this.info(this.keep(i)),
    'drafts.discard': (i) => {
      this.drafts = this.drafts.filter((d) => d.id !== i.draftId);
      return { id: i.draftId };
    },
    'drafts.submit': (i) => {
      const d = this.keep(i);
      if (this.push === 'offline') return { outcome: 'queued', draft: this.info(d), problem: { message: 'The site did not answer.' } };
      if (this.push === 'conflicted') return { outcome: 'conflicted', draft: this.info(Object.assign(d, { state: 'conflicted' })) };
      if (this.push === 'rejected') {
        const problem = { message: 'The page needs attention.', fields: { 'header.date': 'Not a date.' } };
        return { outcome: 'rejected', draft: this.info(Object.assign(d, { state: 'rejected', problem })), problem };
      }
      this.site = { ...this.site, content: d.content, header: d.header, title: String(d.header.title ?? d.title), etag: '"v2"' };
      this.drafts = [];
      return { outcome: 'pushed', page: structuredClone(this.site) };
    },
    'pages.copyAsNew': (i) => ({ ...this.site, route: `${i.route}-copy`, title: i.title, content: i.content }),
  };

  keep(i: Record<string, unknown>) {
    let d = this.drafts.find((x) => x.route === i.route);
    if (!d) {
      d = { id: this.drafts.length + 1, siteId: 's1', route: String(i.route), lang: '', state: 'pending', title: '', problem: null, updatedAt: '', content: '', header: {} };
      this.drafts.push(d);
    }
    return Object.assign(d, { title: i.title, content: i.content, header: i.header, updatedAt: new Date().toISOString() });
  }

  info(d: EditorHost['drafts'][number]): DraftInfo {
    const { content: _c, header: _h, template: _t, ...info } = d;
    return info;
  }

  detail(d: EditorHost['drafts'][number]) {
    return { ...this.info(d), mine: { title: d.title, content: d.content, header: d.header, ...(d.template ? { template: d.template } : {}) } };
  }

  /** The channels called, in order. */
  get channels(): string[] {
    return this.calls.map((c) => c.channel);
  }
}

/** Lets the session's calls and effects settle (the stand-in answers at once). */
async function settle() {
  for (let i = 0; i < 10; i++) {
    flushSync();
    await Promise.resolve();
    await vi.advanceTimersByTimeAsync(0);
  }
}

describe('EditorSession', () => {
  let host: EditorHost;
  let stops: (() => void)[];
  /** Each test its own site: text left behind by one test's editors is not another's. */
  let siteId = '';
  let n = 0;
  beforeEach(() => {
    siteId = `s${++n}`;
    vi.useFakeTimers();
    host = new EditorHost();
    stops = [];
  });
  afterEach(() => {
    for (const stop of stops) stop();
    vi.useRealTimers();
  });

  async function open(opts: Partial<ConstructorParameters<typeof EditorSession>[0]> = {}) {
    const ed = new EditorSession({ siteId, route: '/blog/hello', canWrite: () => true, lookups: new SitePagesState(siteId), ...opts });
    stops.push(ed.start());
    await settle();
    return ed;
  }

  it('opens the page as the site has it: nothing unsaved', async () => {
    const ed = await open();
    expect(ed.loading).toBe(false);
    expect(ed.content).toBe('Hello world.');
    expect(ed.title).toBe('Hello');
    expect(ed.stateKind).toBe('saved');
    expect(ed.mustAsk).toBe(false);
  });

  it('keeps typed text on this computer after a pause, and says so', async () => {
    const ed = await open();
    ed.content = 'Hello there.';
    flushSync();
    expect(ed.stateKind).toBe('dirty');
    expect(host.channels).not.toContain('drafts.save');
    await vi.advanceTimersByTimeAsync(PERSIST_DELAY_MS);
    await settle();
    expect(host.drafts).toHaveLength(1);
    expect(host.drafts[0]!.content).toBe('Hello there.');
    expect(ed.stateKind).toBe('local');
    expect(ed.mustAsk).toBe(true); // kept here is not on the site: leaving still asks
  });

  it('a full disk: the text stays, the editor says why, and keeps it by itself once there is room', async () => {
    const ed = await open();
    let full = true;
    const keep = host.handlers['drafts.save']!;
    host.handlers['drafts.save'] = (i) => {
      if (full) throw { code: 'disk_full', message: 'The disk holding your home folder is full, so this could not be saved. Nothing was lost; free some space on it.' };
      return keep(i);
    };
    ed.content = 'Words on a full disk.';
    flushSync();
    await vi.advanceTimersByTimeAsync(PERSIST_DELAY_MS);
    await settle();
    expect(ed.persistError).toMatch(/is full/);
    expect(ed.persistRetrying).toBe(true);
    expect(host.drafts).toHaveLength(0);
    expect(ed.content).toBe('Words on a full disk.');
    await vi.advanceTimersByTimeAsync(FULL_DISK_RETRY_MS);
    await settle();
    expect(host.drafts).toHaveLength(0); // still full: tried again, nothing lost, nothing kept yet
    full = false;
    await vi.advanceTimersByTimeAsync(FULL_DISK_RETRY_MS);
    await settle();
    expect(host.drafts[0]?.content).toBe('Words on a full disk.');
    expect(ed.persistError).toBeNull();
    expect(ed.persistRetrying).toBe(false);
    expect(ed.stateKind).toBe('local');
  });

  it('a Save that reaches the site makes its copy the baseline', async () => {
    const saved: Page[] = [];
    const ed = await open({ onSaved: (p) => saved.push(p) });
    ed.setHeader('header.title', 'Hello again');
    ed.content = 'New text.';
    flushSync();
    expect(await ed.save()).toBe(true);
    expect(host.site.content).toBe('New text.');
    expect(ed.saved?.etag).toBe('"v2"');
    expect(ed.localDraft).toBeNull();
    expect(ed.stateKind).toBe('saved');
    expect(saved.map((p) => p.title)).toEqual(['Hello again']);
  });

  it('a Save the site does not answer stays queued: leaving does not ask again', async () => {
    host.push = 'offline';
    const ed = await open();
    ed.content = 'Offline words.';
    flushSync();
    expect(await ed.save()).toBe(true);
    expect(ed.waitingForSite).toBe('The site did not answer.');
    expect(host.drafts[0]?.content).toBe('Offline words.');
    expect(ed.mustAsk).toBe(false);
  });

  it('a conflicting Save opens the conflict choice and keeps the text', async () => {
    host.push = 'conflicted';
    const ed = await open();
    ed.content = 'Mine.';
    flushSync();
    expect(await ed.save()).toBe(false);
    expect(ed.conflictOpen).toBe(true);
    expect(ed.localDraft?.state).toBe('conflicted');
    expect(ed.content).toBe('Mine.');
    expect(ed.stateKind).toBe('conflict');
  });

  it('a refused Save names the field, and the view is told which one comes first', async () => {
    host.push = 'rejected';
    const attention: string[] = [];
    const ed = await open({ onAttention: (f) => attention.push(f) });
    ed.content = 'Refused.';
    flushSync();
    expect(await ed.save()).toBe(false);
    expect(ed.formError).toBe('The page needs attention.');
    expect(ed.errors).toEqual({ 'header.date': 'Not a date.' });
    expect(attention).toEqual(['header.date']);
  });

  it('refuses to save a page without a title, before anything goes out', async () => {
    const ed = await open();
    ed.setHeader('header.title', '  ');
    flushSync();
    expect(await ed.save()).toBe(false);
    expect(ed.errors.title).toBe('A page needs a title.');
    expect(host.channels).not.toContain('drafts.submit');
  });

  it('a rate-limited Save waits out the countdown with Save held back, its message kept', async () => {
    const ed = await open();
    const submit = host.handlers['drafts.submit']!;
    host.handlers['drafts.submit'] = () => {
      throw { code: 'rate_limited', message: 'The site asks to slow down.', retryAfter: 5 };
    };
    ed.content = 'Too fast.';
    flushSync();
    expect(await ed.save()).toBe(false);
    expect(ed.formError).toBe('The site asks to slow down.');
    expect(ed.errors).toEqual({});
    expect(ed.saving).toBe(false);
    expect(ed.wait.active).toBe(true);
    expect(ed.wait.seconds).toBe(5);
    host.calls = [];
    expect(await ed.save()).toBe(false); // held back: nothing is sent
    expect(host.channels).not.toContain('drafts.submit');
    await vi.advanceTimersByTimeAsync(5_500);
    expect(ed.wait.active).toBe(false);
    expect(ed.formError).toBe('The site asks to slow down.'); // said until the next Save
    host.handlers['drafts.submit'] = submit;
    expect(await ed.save()).toBe(true);
    expect(ed.formError).toBeNull();
    expect(host.site.content).toBe('Too fast.');
  });

  it('stopping the session stops a rate limit\'s countdown', async () => {
    const ed = await open();
    host.handlers['drafts.submit'] = () => {
      throw { code: 'rate_limited', message: 'Slow down.', retryAfter: 30 };
    };
    ed.content = 'Too fast.';
    flushSync();
    await ed.save();
    expect(ed.wait.active).toBe(true);
    stops.pop()!();
    expect(ed.wait.active).toBe(false);
    await vi.advanceTimersByTimeAsync(31_000);
    expect(ed.action.waited).toBe(false); // stopped, not run out
  });

  it('a conflict the site answers to a move opens the conflict choice, not the alert', async () => {
    host.handlers['pages.move'] = () => {
      throw { code: 'conflict', message: 'The page changed on the site.' };
    };
    const ed = await open();
    ed.slug = 'hello-2';
    flushSync();
    expect(await ed.save()).toBe(false);
    expect(ed.conflictOpen).toBe(true);
    expect(ed.formError).toBeNull();
  });

  it('a draft kept from before comes back when the page is opened', async () => {
    host.drafts.push({ id: 7, siteId: 's1', route: '/blog/hello', lang: '', state: 'pending', title: 'Hello', problem: null, updatedAt: '2026-01-01T00:00:00Z', content: 'From yesterday.', header: { title: 'Hello' } });
    const ed = await open();
    expect(ed.content).toBe('From yesterday.');
    expect(ed.draftRestored).toBe(true);
    expect(ed.stateKind).toBe('local');
    await ed.discardRestored();
    await settle();
    expect(host.drafts).toHaveLength(0);
    expect(ed.content).toBe('Hello world.');
  });

  it('text an editor went away from comes back in the next editor of the page', async () => {
    host.handlers['drafts.save'] = () => {
      throw { code: 'internal', message: 'disk full' };
    };
    const first = await open();
    first.content = 'Not kept anywhere else.';
    flushSync();
    stops.pop()!();
    const second = await open();
    expect(second.content).toBe('Not kept anywhere else.');
    expect(second.restoredAt).not.toBeNull();
    expect(second.mustAsk).toBe(true);
  });

  it('Save is one call; opening is one call that carries the draft', async () => {
    const ed = await open();
    // the page with its draft in one call; the rest are the lookups (languages, templates, taxonomy, blueprint)
    const lookups = ['translations.languages', 'blueprints.templates', 'pages.taxonomy', 'blueprints.page'];
    expect(host.channels.filter((c) => !lookups.includes(c))).toEqual(['pages.open']);
    ed.content = 'One call.';
    flushSync();
    host.calls = [];
    expect(await ed.save()).toBe(true);
    expect(host.channels).toEqual(['drafts.submit']);
  });

  it('the templates, the taxonomy and write permission are the site’s: a second editor reads no lookup again', async () => {
    const site = new SitePagesState(siteId);
    const first = await open({ lookups: site, canWrite: () => false });
    expect(first.templates).toEqual([{ type: 'default', label: 'Default' }]);
    expect(first.canWrite).toBe(false);
    stops.pop()!();
    host.calls = [];
    const second = await open({ lookups: site });
    expect(second.templates).toEqual([{ type: 'default', label: 'Default' }]);
    expect(host.channels.filter((c) => c === 'blueprints.templates' || c === 'pages.taxonomy')).toEqual([]);
  });

  it('keep mine as a copy: the Host names the copy; the site’s copy is shown here again', async () => {
    host.push = 'conflicted';
    const ed = await open();
    ed.content = 'Mine, kept.';
    flushSync();
    await ed.save();
    host.calls = [];
    await ed.keepAsCopy();
    await settle();
    expect(host.channels.slice(0, 2)).toEqual(['pages.copyAsNew', 'drafts.discard']);
    expect(ed.conflictOpen).toBe(false);
    expect(host.drafts).toHaveLength(0);
    expect(ed.content).toBe('Hello world.');
  });

  it('a move checks the slug before asking the site', async () => {
    const attention: string[] = [];
    const ed = await open({ onAttention: (f) => attention.push(f) });
    ed.slug = 'a/b';
    flushSync();
    expect(await ed.save()).toBe(false);
    expect(ed.errors.slug).toBe('A slug is one name without slashes.');
    expect(attention).toEqual(['slug']);
    expect(host.channels).not.toContain('pages.move');
  });
});
