/**
 * Where a name becomes part of a URL path, the second check after the contract's (contract/names.ts,
 * the same rule): a segment that is `.` or `..`, holds a separator or a control character is
 * refused before any request is made. `encodeURIComponent('..')` is still `..`, and the URL parser
 * then climbs: DELETE …/pages/contact/media/.. became DELETE …/pages/contact/ (review L1). Every API
 * module builds its paths from `segment` and `routePath`; the transport checks the finished path once
 * more (`assertNoClimb`), for a path put together some other way.
 */
import { segmentProblem } from '../contract';
import { AppError } from '../base/app-error';

/** One path segment from a name: refused when it could climb, else percent-encoded. */
export function segment(name: string, what = 'name'): string {
  const problem = segmentProblem(name);
  if (problem) throw new AppError({ code: 'invalid_input', message: problem.replace('A name', `A ${what}`) });
  return encodeURIComponent(name);
}

/** `/blog/my post` → `blog/my%20post`: no leading slash, each segment checked and percent-encoded. */
export function routePath(route: string): string {
  return route
    .split('/')
    .filter((s) => s !== '')
    .map((s) => segment(s, 'route part'))
    .join('/');
}

/** A dot segment, plain or percent-encoded (`.`, `..`, `%2e`, `.%2E`): the URL parser resolves each. */
const DOT_SEGMENT = /^(\.|%2e){1,2}$/i;

/** Refuses a finished path (before its query) with a segment the URL parser would resolve away. */
export function assertNoClimb(path: string): void {
  const bare = path.split(/[?#]/, 1)[0]!;
  if (bare.split(/[/\\]/).some((s) => DOT_SEGMENT.test(s)))
    throw new AppError({ code: 'invalid_input', message: `Sitedesk will not send a request whose address climbs out of its folder (${JSON.stringify(bare.slice(0, 120))}).` });
}
