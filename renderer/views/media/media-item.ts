/** What the media grid and the preview show of one file: its icon, its dimensions, its text metadata. */
import FileIcon from '@lucide/svelte/icons/file';
import FileText from '@lucide/svelte/icons/file-text';
import ImageIcon from '@lucide/svelte/icons/image';
import Film from '@lucide/svelte/icons/film';
import Music from '@lucide/svelte/icons/music';
import type { PageMediaItem } from '../../../electron/contract/index';

export const isImage = (m: PageMediaItem) => m.type.startsWith('image/');

export const iconFor = (m: PageMediaItem) =>
  m.type.startsWith('image/')
    ? ImageIcon
    : m.type.startsWith('video/')
      ? Film
      : m.type.startsWith('audio/')
        ? Music
        : m.type.startsWith('text/') || m.type === 'application/pdf'
          ? FileText
          : FileIcon;

/** `W×H` when the site's metadata carries numeric dimensions. */
export const dims = (m: PageMediaItem) => {
  const d = m.meta?.dimensions as { width?: unknown; height?: unknown } | undefined;
  return d && typeof d.width === 'number' && typeof d.height === 'number' ? `${d.width}×${d.height}` : null;
};

/** A metadata string (alt, title…), or null when absent or blank. */
export const metaText = (m: PageMediaItem, key: string) => {
  const v = m.meta?.[key];
  return typeof v === 'string' && v.trim() !== '' ? v : null;
};
