/**
 * A plugin's icon in the app's icon set (Lucide): a Lucide name the app carries, a Font Awesome
 * name with an obvious Lucide twin (`note-sticky` → sticky-note), a class list's Font Awesome name
 * (`fa-solid fa-heart-pulse`), else the generic puzzle piece. An SVG path is drawn by AddonIcon
 * itself (a <path d> only). A fixed table, not every Lucide icon: the bundle stays small and a
 * site's name never picks code to load.
 */
import type { Component } from 'svelte';
import type { AddonIcon } from '../../../electron/contract/index';
import Activity from '@lucide/svelte/icons/activity';
import Bell from '@lucide/svelte/icons/bell';
import Bot from '@lucide/svelte/icons/bot';
import Calendar from '@lucide/svelte/icons/calendar';
import ChartLine from '@lucide/svelte/icons/chart-line';
import Check from '@lucide/svelte/icons/check';
import Clock from '@lucide/svelte/icons/clock';
import CloudDownload from '@lucide/svelte/icons/cloud-download';
import Download from '@lucide/svelte/icons/download';
import Eye from '@lucide/svelte/icons/eye';
import FileText from '@lucide/svelte/icons/file-text';
import Folder from '@lucide/svelte/icons/folder';
import Gauge from '@lucide/svelte/icons/gauge';
import Globe from '@lucide/svelte/icons/globe';
import Heart from '@lucide/svelte/icons/heart';
import HeartPulse from '@lucide/svelte/icons/heart-pulse';
import History from '@lucide/svelte/icons/history';
import House from '@lucide/svelte/icons/house';
import Image from '@lucide/svelte/icons/image';
import Info from '@lucide/svelte/icons/info';
import Languages from '@lucide/svelte/icons/languages';
import Link from '@lucide/svelte/icons/link';
import List from '@lucide/svelte/icons/list';
import Lock from '@lucide/svelte/icons/lock';
import Mail from '@lucide/svelte/icons/mail';
import MessageCircle from '@lucide/svelte/icons/message-circle';
import Pencil from '@lucide/svelte/icons/pencil';
import Pin from '@lucide/svelte/icons/pin';
import Play from '@lucide/svelte/icons/play';
import Plus from '@lucide/svelte/icons/plus';
import Puzzle from '@lucide/svelte/icons/puzzle';
import RotateCw from '@lucide/svelte/icons/rotate-cw';
import Search from '@lucide/svelte/icons/search';
import Settings from '@lucide/svelte/icons/settings';
import Shield from '@lucide/svelte/icons/shield';
import Star from '@lucide/svelte/icons/star';
import Stethoscope from '@lucide/svelte/icons/stethoscope';
import StickyNote from '@lucide/svelte/icons/sticky-note';
import Tag from '@lucide/svelte/icons/tag';
import Trash2 from '@lucide/svelte/icons/trash-2';
import Users from '@lucide/svelte/icons/users';
import Wrench from '@lucide/svelte/icons/wrench';
import Zap from '@lucide/svelte/icons/zap';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- Lucide's components share one props type
type Icon = Component<any>;

/** Lucide's names the app carries. */
const LUCIDE: Record<string, Icon> = {
  activity: Activity, bell: Bell, bot: Bot, calendar: Calendar, 'chart-line': ChartLine, check: Check, clock: Clock,
  'cloud-download': CloudDownload, download: Download, eye: Eye, 'file-text': FileText, folder: Folder, gauge: Gauge,
  globe: Globe, heart: Heart, 'heart-pulse': HeartPulse, history: History, house: House, image: Image, info: Info,
  languages: Languages, link: Link, list: List, lock: Lock, mail: Mail, 'message-circle': MessageCircle, pencil: Pencil,
  pin: Pin, play: Play, plus: Plus, puzzle: Puzzle, 'rotate-cw': RotateCw, search: Search, settings: Settings,
  shield: Shield, star: Star, stethoscope: Stethoscope, 'sticky-note': StickyNote, tag: Tag, 'trash-2': Trash2,
  users: Users, wrench: Wrench, zap: Zap,
};

/** Font Awesome names whose Lucide twin has another name. */
const FA_TWINS: Record<string, string> = {
  'note-sticky': 'sticky-note', 'sticky-note': 'sticky-note', thumbtack: 'pin', 'cloud-arrow-down': 'cloud-download',
  'wave-square': 'activity', 'heart-pulse': 'heart-pulse', heartbeat: 'heart-pulse', rotate: 'rotate-cw', sync: 'rotate-cw',
  robot: 'bot', language: 'languages', bolt: 'zap', comment: 'message-circle', comments: 'message-circle',
  gear: 'settings', cog: 'settings', file: 'file-text', 'file-lines': 'file-text', 'magnifying-glass': 'search',
  envelope: 'mail', 'circle-info': 'info', 'info-circle': 'info', trash: 'trash-2', 'trash-can': 'trash-2', pen: 'pencil',
  'clock-rotate-left': 'history', 'gauge-high': 'gauge', 'tachometer-alt': 'gauge', 'user-group': 'users',
  'list-ul': 'list', 'chart-line': 'chart-line', 'house-chimney': 'house', home: 'house', 'shield-halved': 'shield',
};

const FA_STYLES = new Set(['fa', 'fas', 'far', 'fal', 'fab', 'fa-solid', 'fa-regular', 'fa-light', 'fa-thin', 'fa-duotone', 'fa-brands', 'fa-sharp', 'fa-fw', 'fa-lg']);

/** Own entries only: a site's name is data, never a key that reaches a prototype (`constructor`). */
const own = <T>(table: Record<string, T>, key: string): T | undefined => (Object.hasOwn(table, key) ? table[key] : undefined);
const lucide = (name: string): Icon | null => own(LUCIDE, name) ?? null;
const byFa = (name: string): Icon | null => lucide(own(FA_TWINS, name) ?? name);

/** The Lucide component for an icon; null for an SVG path (drawn as a path) — the puzzle when nothing fits. */
export function lucideFor(icon: AddonIcon | null): Icon | null {
  if (icon?.kind === 'svg') return null;
  if (!icon) return Puzzle;
  if (icon.kind === 'lucide') return lucide(icon.name) ?? byFa(icon.name) ?? Puzzle;
  if (icon.kind === 'fa') return byFa(icon.name) ?? Puzzle;
  const fa = icon.name
    .split(' ')
    .filter((c) => c.startsWith('fa-') && !FA_STYLES.has(c))
    .map((c) => byFa(c.slice(3)))
    .find((x) => x !== null);
  return fa ?? Puzzle;
}

export { Puzzle };
