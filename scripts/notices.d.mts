import type { ShippedLicence } from '../electron/contract/about';
import type { BundleRecord, ShippedPackage } from './shipped-packages.mjs';
export const NOTICES_TEXT: string;
export const NOTICES_JSON: string;
export const NOTICES_FORMAT: number;
/** One package's entry of licences.json: the shape the Host serves as `about.licences` (one definition). */
export type NoticeEntry = ShippedLicence;
export function extraNotes(pkg: ShippedPackage): string[];
export function collectNotices(projectDir: string, options?: { records?: BundleRecord[]; appPkg?: Record<string, unknown> }): NoticeEntry[];
export function noticesText(app: { name: string; productName?: string; version: string }, entries: NoticeEntry[]): string;
export function writeNotices(projectDir: string, appDir: string, options?: { records?: BundleRecord[]; appPkg?: Record<string, unknown> }): { count: number };
