/** The `demo.*` channels (contract/demo.ts) on the demo mode service. */
import type { demoChannels } from '../contract';
import type { HandlersOf, Lazy } from '../base/handlers';
import type { DemoService } from './service';

export function demoHandlers(demo: Lazy<DemoService>): HandlersOf<typeof demoChannels> {
  return {
    'demo.status': ({ siteId }) => demo().status(siteId),
    'demo.baseline': ({ siteId }) => demo().baseline(siteId),
    'demo.reset': ({ siteId }) => demo().reset(siteId),
  };
}
