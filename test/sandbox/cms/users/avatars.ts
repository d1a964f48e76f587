/**
 * Avatar images: the type is read from the bytes, never from the client's name or Content-Type
 * (as the real service does with getimagesizefromstring(), GHSA-xc64-vh46-vph6): a file counts
 * as an image only when its header is whole and names a width and height. The documents accept
 * JPEG, PNG, GIF and WebP; the real service (UsersController.php uploadAvatar()) refuses GIF.
 * The bytes are read by site/image-info.ts sniffImage(), the media library's reader too. Files
 * live in `<data>/avatars/`, served at /user/accounts/avatars/NAME.
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export class AvatarFiles {
  readonly dir: string;

  constructor(dataDir: string) {
    this.dir = join(dataDir, 'avatars');
  }

  write(name: string, data: Buffer): void {
    mkdirSync(this.dir, { recursive: true });
    writeFileSync(join(this.dir, name), data);
  }

  remove(name: string): void {
    const file = join(this.dir, name);
    if (!name.includes('/') && existsSync(file)) rmSync(file);
  }
}
