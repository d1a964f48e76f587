/**
 * The site's 422 field names (`notes.1.pinned_until`) on a plugin's form: a name the form has gets
 * its message; a name inside a field the form edits as a whole (a list of records edited as YAML)
 * goes to that field, saying where inside it ("Item 2, pinned until: …"); the rest are for the
 * form's alert, so no message is lost.
 */
export function placeErrors(fieldNames: readonly string[], errors: Readonly<Record<string, string>>): { fields: Record<string, string>; rest: string[] } {
  const fields: Record<string, string> = {};
  const rest: string[] = [];
  const add = (name: string, message: string) => {
    fields[name] = fields[name] ? `${fields[name]} ${message}` : message;
  };
  const names = [...fieldNames].sort((a, b) => b.length - a.length);
  for (const [key, message] of Object.entries(errors)) {
    const owner = names.find((n) => key === n || key.startsWith(`${n}.`));
    if (!owner) {
      rest.push(message);
      continue;
    }
    if (owner === key) {
      add(owner, message);
      continue;
    }
    const where = key
      .slice(owner.length + 1)
      .split('.')
      .map((part) => (/^\d+$/.test(part) ? `Item ${Number(part) + 1}` : part.replace(/_/g, ' ')))
      .join(', ');
    add(owner, `${where}: ${message}`);
  }
  return { fields, rest };
}
