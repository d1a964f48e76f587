/// <reference types="vite/client" />
/**
 * TEMPORARY (delete with AreaSlot.svelte once both files exist, and import them in AreaView):
 * finds the Translations and Media areas of the parallel work without importing files that may not
 * be there yet. The glob matches nothing until a file is written; then Vite bundles it lazily.
 */
import type { Component } from 'svelte';
import type { Site } from '../../../electron/contract/index';

type AreaModule = { default: Component<{ site: Site }> };
const areas = import.meta.glob<AreaModule>(['../translations/TranslationsArea.svelte', '../media/MediaArea.svelte']);
export const loadTranslationsArea: (() => Promise<AreaModule>) | null = areas['../translations/TranslationsArea.svelte'] ?? null;
export const loadMediaArea: (() => Promise<AreaModule>) | null = areas['../media/MediaArea.svelte'] ?? null;
