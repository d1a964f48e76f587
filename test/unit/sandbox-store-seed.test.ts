// The store sandboxes keep their state in one JSON file (test/sandbox/json-file.ts): seeding writes
// it once, not once per row, and every later change still reaches the file at once.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { Clock } from '../../test/sandbox/clock';
import { JsonBacked } from '../../test/sandbox/json-file';
import { StoreData } from '../../test/sandbox/store/data';
import { seedStore } from '../../test/sandbox/store/seed';
import { PetstoreData } from '../../test/sandbox/store/real/data';
import { seedPetstore } from '../../test/sandbox/store/real/seed';
import { tempDir } from '../support/tmp';

/** The smallest state kept this way: one number. */
class Counter extends JsonBacked<{ n: number }> {
  constructor(file: string) {
    super(file, { n: 0 });
  }
  get n(): number {
    return this.state.n;
  }
  set(n: number): void {
    this.state = { n };
    this.save();
  }
}

describe('store sandbox state file', () => {
  test('the document store: seeded with one write, then one write per change', async () => {
    const dir = tempDir();
    try {
      const data = new StoreData(dir.path, new Clock());
      const seeded = await seedStore('demo', data, 'http://127.0.0.1:1', Date.now());
      expect(seeded).not.toBeNull();
      expect(data.writes).toBe(1);
      const onDisk = JSON.parse(readFileSync(join(dir.path, 'store.json'), 'utf8')) as { pets: unknown[]; users: unknown[]; keys: unknown[] };
      expect(onDisk.pets.length).toBe(data.pets().length);
      expect(onDisk.pets.length).toBeGreaterThan(10);
      expect(onDisk.users).toHaveLength(2);
      expect(onDisk.keys).toHaveLength(3);
      data.removePet(1);
      expect(data.writes).toBe(2);
      expect(new StoreData(dir.path, new Clock()).pet(1)).toBeUndefined();
      expect(await seedStore('demo', new StoreData(dir.path, new Clock()), 'http://127.0.0.1:1', Date.now())).toBeNull();
    } finally {
      dir.remove();
    }
  });

  test('the Petstore: seeded with one write', () => {
    const dir = tempDir();
    try {
      const data = new PetstoreData(dir.path);
      seedPetstore('demo', data, 'http://127.0.0.1:1', Date.now());
      expect(data.writes).toBe(1);
      expect(new PetstoreData(dir.path).pets().length).toBe(data.pets().length);
    } finally {
      dir.remove();
    }
  });

  test('a batch inside a batch writes once, at the outer end; a batch that changes nothing writes nothing', () => {
    const dir = tempDir();
    try {
      const at = join(dir.path, 'x.json');
      const file = new Counter(at);
      file.batch(() => {
        file.set(1);
        file.batch(() => file.save());
        expect(file.writes).toBe(0);
      });
      expect(file.writes).toBe(1);
      expect(JSON.parse(readFileSync(at, 'utf8'))).toEqual({ n: 1 });
      expect(new Counter(at).n).toBe(1);
      file.batch(() => {});
      expect(file.writes).toBe(1);
    } finally {
      dir.remove();
    }
  });
});
