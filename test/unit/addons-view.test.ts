/**
 * The renderer's pure parts for what plugins add: a 422's field names placed on a plugin's form
 * (a record inside a list edited as a whole says where inside it), labels that are translation keys
 * in words (the site's translation, else the blueprint forms' readable words), and icons mapped to
 * the app's set with the puzzle as the fallback.
 */
import { describe, expect, test } from 'vitest';
import Puzzle from '@lucide/svelte/icons/puzzle';
import StickyNote from '@lucide/svelte/icons/sticky-note';
import HeartPulse from '@lucide/svelte/icons/heart-pulse';
import History from '@lucide/svelte/icons/history';
import Pin from '@lucide/svelte/icons/pin';
import { placeErrors } from '../../renderer/views/addons/form-errors';
import { addonLabel } from '../../renderer/views/addons/labels';
import { lucideFor } from '../../renderer/views/addons/icons';

describe('what plugins add, in the renderer', () => {
  test('a 422 at its field, inside a list at the list, unknown names to the alert', () => {
    const placed = placeErrors(['notes', 'checks.interval', 'checks'], {
      'notes.1.pinned_until': 'Invalid input in "Pinned until"',
      'notes.0.title': 'Invalid input in "Title"',
      'checks.interval': 'Too small',
      'other.thing': 'Nope',
    });
    expect(placed.fields).toEqual({
      notes: 'Item 2, pinned until: Invalid input in "Pinned until" Item 1, title: Invalid input in "Title"',
      'checks.interval': 'Too small',
    });
    expect(placed.rest).toEqual(['Nope']);
  });

  test('labels: the site’s translation, else words made from the key, words as they are', () => {
    const strings = { 'PLUGIN_TEAM_NOTES.MENU_LABEL': 'Team notes' };
    expect(addonLabel(strings, 'PLUGIN_TEAM_NOTES.MENU_LABEL')).toBe('Team notes');
    expect(addonLabel(strings, 'PLUGIN_SITE_HEALTH.RUN_CHECKS')).toBe('Run checks');
    expect(addonLabel(strings, 'Purge CDN')).toBe('Purge CDN');
    expect(addonLabel({ constructor: 'x' } as Record<string, string>, 'toString')).toBe('toString');
  });

  test('icons: Lucide names, Font Awesome twins, a class list, the puzzle otherwise; an SVG path is drawn, not mapped', () => {
    expect(lucideFor({ kind: 'fa', name: 'note-sticky', style: null })).toBe(StickyNote);
    expect(lucideFor({ kind: 'fa', name: 'thumbtack', style: 'solid' })).toBe(Pin);
    expect(lucideFor({ kind: 'class', name: 'fa-solid fa-heart-pulse' })).toBe(HeartPulse);
    expect(lucideFor({ kind: 'lucide', name: 'history' })).toBe(History);
    expect(lucideFor({ kind: 'fa', name: 'no-such-icon', style: null })).toBe(Puzzle);
    expect(lucideFor({ kind: 'lucide', name: 'constructor' })).toBe(Puzzle);
    expect(lucideFor(null)).toBe(Puzzle);
    expect(lucideFor({ kind: 'svg', path: 'M0 0h1' })).toBeNull();
  });
});
