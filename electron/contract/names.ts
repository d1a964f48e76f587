/**
 * Names that end up in a URL path or a file path: a file name, a route's segment, a username, a
 * template. One rule for all of them, checked at the contract (`pathName`, and `Route` per
 * segment) and again where the path is made (api/url-path.ts), so no name can climb: `.` and `..`,
 * the separators `/` and `\`, and control characters are refused. Nothing wider: dots inside a
 * name, spaces and letters of any language are legal on both services (Grav refuses a leading dot
 * or `..` inside a file name itself and says so; Petstore takes any username). A lone half of a
 * surrogate pair is refused too: no URL can encode it.
 */
import * as v from 'valibot';
import { hasBrokenCharacter } from './text';

// C0 controls, DEL and C1 controls: never part of a real name, and a CR/LF can split a header line
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** Why `name` cannot be one segment of a path, or null when it can. */
export function segmentProblem(name: string): string | null {
  if (name === '') return 'A name cannot be empty.';
  if (name === '.' || name === '..') return 'A name cannot be . or ..';
  if (/[/\\]/.test(name)) return 'A name cannot hold / or \\.';
  if (CONTROL.test(name)) return 'A name cannot hold control characters.';
  if (hasBrokenCharacter(name)) return 'A name cannot hold a broken character (half of a surrogate pair).';
  return null;
}

/**
 * A name used as one segment of a path: 1 to `max` characters, never climbing. Not trimmed: a name
 * a site sent is used as it is (a file " a.jpg" is not "a.jpg"); a field a person types trims first.
 */
export const pathName = (what: string, max = 255) =>
  v.pipe(
    v.string(),
    v.minLength(1, `Enter the ${what}.`),
    v.maxLength(max, `A ${what} is at most ${max} characters.`),
    v.rawCheck(({ dataset, addIssue }) => {
      if (!dataset.typed) return;
      const problem = segmentProblem(dataset.value);
      if (problem) addIssue({ message: problem.replace('A name', `A ${what}`) });
    }),
  );
