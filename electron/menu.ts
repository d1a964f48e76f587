/** The native menu: standard roles (they bring the platform's accelerators), nothing custom but updates and help. */
import { app, Menu, shell, type MenuItemConstructorOptions } from 'electron';

const HELP_URL = 'https://github.com/sitedesk/sitedesk';
const ISSUES_URL = 'https://github.com/sitedesk/sitedesk/issues';

export interface MenuOptions {
  /** Development run: adds Reload and the developer tools. */
  isDev: boolean;
  /** False when not packaged: the item shows but is disabled. */
  canCheckForUpdates: boolean;
  onCheckForUpdates(): void;
}

export function installMenu(options: MenuOptions): void {
  const isMac = process.platform === 'darwin';
  const checkForUpdates: MenuItemConstructorOptions = {
    label: 'Check for Updates…',
    enabled: options.canCheckForUpdates,
    click: () => options.onCheckForUpdates(),
  };
  const open = (url: string) => () => void shell.openExternal(url).catch((err: unknown) => console.error('openExternal failed:', err));

  const template: MenuItemConstructorOptions[] = [
    ...(isMac
      ? [
          {
            label: app.name,
            submenu: [
              { role: 'about' },
              checkForUpdates,
              { type: 'separator' },
              { role: 'services' },
              { type: 'separator' },
              { role: 'hide' },
              { role: 'hideOthers' },
              { role: 'unhide' },
              { type: 'separator' },
              { role: 'quit' },
            ],
          } satisfies MenuItemConstructorOptions,
        ]
      : []),
    {
      label: 'File',
      submenu: isMac ? [{ role: 'close' }] : [{ role: 'close' }, { type: 'separator' }, { role: 'quit' }],
    },
    {
      label: 'Edit',
      submenu: [
        { role: 'undo' },
        { role: 'redo' },
        { type: 'separator' },
        { role: 'cut' },
        { role: 'copy' },
        { role: 'paste' },
        { role: 'selectAll' },
      ],
    },
    {
      label: 'View',
      submenu: [
        ...(options.isDev
          ? ([{ role: 'reload' }, { role: 'forceReload' }, { role: 'toggleDevTools' }, { type: 'separator' }] satisfies MenuItemConstructorOptions[])
          : []),
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
    { role: 'windowMenu' },
    {
      role: 'help',
      submenu: [
        { label: 'Sitedesk on GitHub', click: open(HELP_URL) },
        { label: 'Report a Problem…', click: open(ISSUES_URL) },
        ...(isMac ? [] : [{ type: 'separator' } satisfies MenuItemConstructorOptions, checkForUpdates]),
      ],
    },
  ];
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}
