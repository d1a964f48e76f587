/**
 * Runs `make` inside an effect root, as a component's script would run, for unit tests of state
 * classes that register their own cleanup with `$effect` (client-compiled runes refuse an effect
 * outside one). Every root made here is stopped by `stopRoots()` (call it in afterEach).
 */
const roots: (() => void)[] = [];

export function inRoot<T>(make: () => T): T {
  let made: T | undefined;
  roots.push($effect.root(() => void (made = make())));
  return made as T;
}

export function stopRoots(): void {
  for (const stop of roots.splice(0)) stop();
}
