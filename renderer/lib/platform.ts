/** Keyboard wording for this platform (⌘ on macOS, Ctrl elsewhere). */
const ua = typeof navigator !== 'undefined' ? `${navigator.platform} ${navigator.userAgent}` : '';

export const isMac = /Mac|iPhone|iPad/.test(ua);

/** The name of the primary modifier key as printed on the keyboard. */
export const modKey = isMac ? '⌘' : 'Ctrl';
