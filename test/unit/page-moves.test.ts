/**
 * The Pages state's moves without a browser: several pages moved at once take the routes the
 * Host's reorganize answer names (a page whose slug differs from its folder's name lands under its
 * slug), and a reorder's answer is the parent's level on screen (no second read of it). The Host is
 * a small stand-in behind the renderer's transport.
 */
import { describe, expect, it } from 'vitest';
import type { PageSummary, ReorganizedPage } from '../../electron/contract/index';
import { setTransport } from '../../renderer/lib/client';
import { SitePagesState } from '../../renderer/views/pages/pages.svelte';

const summary = (route: string, slug: string, parentRoute: string): PageSummary =>
  ({ route, title: slug, slug, template: 'default', published: true, visible: true, routable: true, hasChildren: false, parentRoute, order: 1 }) as unknown as PageSummary;

function host(levels: Record<string, PageSummary[]>, answers: Record<string, (input: Record<string, unknown>) => unknown>) {
  const asked: [string, Record<string, unknown>][] = [];
  setTransport({
    kind: 'browser',
    invoke: async (channel, input) => {
      const i = input as Record<string, unknown>;
      asked.push([channel, i]);
      if (channel === 'pages.level') return { ok: true, value: { items: levels[String(i.route)] ?? [] } };
      const answer = answers[channel];
      if (!answer) return { ok: false, error: { code: 'internal', message: `no ${channel} here` } };
      return { ok: true, value: answer(i) as never };
    },
    on: () => () => {},
  });
  return asked;
}

describe('SitePagesState moves', () => {
  it('moving several pages takes their new routes from the Host’s answer (the slug, not the folder’s name)', async () => {
    const levels = { '/': [summary('/blog', 'blog', '/'), summary('/about', 'about', '/')], '/blog': [summary('/blog/01.old-folder', 'river', '/blog'), summary('/blog/sea', 'sea', '/blog')] };
    host(levels, {
      'pages.reorganize': (): ReorganizedPage[] => [
        { route: '/about/river', slug: 'river', title: 'river', order: 1, parent: '/about' },
        { route: '/about/sea', slug: 'sea', title: 'sea', order: 2, parent: '/about' },
      ],
    });
    const state = new SitePagesState('s1');
    await state.loadChildren('/');
    await state.loadChildren('/blog');
    const moved = await state.moveInto(['/blog/01.old-folder', '/blog/sea'], '/about');
    expect(moved).toEqual(['/about/river', '/about/sea']);
    expect(state.selection.list.sort()).toEqual(['/about/river', '/about/sea']);
  });

  it('a nudge shows the reorder’s answer as the level, without reading the level again', async () => {
    const levels = { '/': [summary('/docs', 'docs', '/')], '/docs': [summary('/docs/a', 'a', '/docs'), summary('/docs/b', 'b', '/docs')] };
    const asked = host(levels, { 'pages.reorder': () => ({ items: [levels['/docs'][1]!, levels['/docs'][0]!] }) });
    const state = new SitePagesState('s1');
    await state.loadChildren('/');
    await state.loadChildren('/docs');
    asked.length = 0;
    expect(await state.nudge('/docs/a', 1)).toBe(true);
    expect(asked.map(([c]) => c)).toEqual(['pages.reorder']);
    expect(asked[0]![1].order).toEqual(['b', 'a']);
    expect(state.levels['/docs']!.items.map((p) => p.route)).toEqual(['/docs/b', '/docs/a']);
    expect(state.notice?.text).toContain('is now 2 of 2');
  });
});
