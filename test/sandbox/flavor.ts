/**
 * Which service a sandbox imitates. `spec` follows the documents in ../shared/spec word for word
 * (the default); `real` behaves as the services people actually run do: the Grav API plugin
 * (getgrav/grav-plugin-api) for the CMS and the Swagger Petstore v3 for the store, on every point
 * where they differ from the documents. Both are strict: what the imitated service refuses, the
 * sandbox refuses.
 */
export type Flavor = 'spec' | 'real';

export const FLAVORS: readonly Flavor[] = ['spec', 'real'];

export function isFlavor(x: unknown): x is Flavor {
  return x === 'spec' || x === 'real';
}
