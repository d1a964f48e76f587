/** The About view's pure parts (renderer/views/about/licences.ts): the filter, where a package is used in words, panel ids. */
import { describe, expect, it } from 'vitest';
import type { ShippedLicence } from '../../electron/contract';
import { filterLicences, panelId, whereUsed } from '../../renderer/views/about/licences';

const pkg = (name: string, version: string, licence: string, where: string[] = ['renderer'], native = false): ShippedLicence => ({
  name,
  version,
  licence,
  where,
  native,
  homepage: null,
  notes: [],
  texts: [],
});
const list = [pkg('marked', '18.2.1', 'MIT'), pkg('dompurify', '3.4.18', '(MPL-2.0 OR Apache-2.0)'), pkg('@codemirror/view', '6.43.15', 'MIT'), pkg('argparse', '2.0.1', 'Python-2.0', ['runtime'])];

describe('the licences filter', () => {
  it('keeps packages whose name, version or licence hold every typed word, case ignored', () => {
    expect(filterLicences(list, '').map((p) => p.name)).toEqual(['marked', 'dompurify', '@codemirror/view', 'argparse']);
    expect(filterLicences(list, '  MIT ').map((p) => p.name)).toEqual(['marked', '@codemirror/view']);
    expect(filterLicences(list, 'mit code').map((p) => p.name)).toEqual(['@codemirror/view']);
    expect(filterLicences(list, 'apache').map((p) => p.name)).toEqual(['dompurify']);
    expect(filterLicences(list, '18.2').map((p) => p.name)).toEqual(['marked']);
    expect(filterLicences(list, 'gpl')).toEqual([]);
  });
});

describe('where a package is used, in words', () => {
  it('names the parts of the app, and a native add-on', () => {
    expect(whereUsed({ where: ['renderer'], native: false })).toBe('Built into the window.');
    expect(whereUsed({ where: ['host', 'renderer', 'shell'], native: false })).toBe('Built into the background service, the window and the desktop shell.');
    expect(whereUsed({ where: ['runtime'], native: true })).toBe('Installed with the app as a package of its own. It carries a native add-on.');
    expect(whereUsed({ where: ['browser-mode', 'host', 'runtime'], native: false })).toBe(
      'Built into browser mode and the background service, and installed with the app as a package of its own.',
    );
  });

  it('gives each package and version its own panel id, usable in HTML', () => {
    expect(panelId({ name: '@codemirror/view', version: '6.43.15' })).toBe('licence--codemirror-view-6-43-15');
    expect(panelId({ name: 'runed', version: '0.23.4' })).not.toBe(panelId({ name: 'runed', version: '0.29.2' }));
  });
});
