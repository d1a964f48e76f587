/**
 * Page files: YAML front matter (the header) between `---` lines, then markdown. A small, strict
 * YAML subset of its own rather than the `yaml` package (a devDependency: the editor's): what the
 * sandbox refuses, and the line it names, is part of what it imitates, and a general parser takes
 * what no page header holds (anchors, tags, several documents) and would decide those answers for
 * it. The subset is enough for what page headers hold and what the real service writes:
 *
 *   block mappings and sequences (nested by indentation, `- key: value` items), plain, single- and
 *   double-quoted scalars (null/~, true/false, integers, floats, everything else a string), flow
 *   collections (`[a, 'b']`, `{k: v}`), block scalars (`|`, `|-`, `|+`, `>`, `>-`), comments, and
 *   plain scalars continued on more-indented lines.
 *
 * Anything outside the subset or malformed (tabs as indentation, bad indentation, unterminated
 * quotes or flow collections, `a: b: c`, duplicate keys, anchors/aliases/tags, text after a
 * closing quote) is a `YamlError` with its line number, never a guess: the routes turn it into
 * the problem answer for "a page whose front matter is invalid" (see serialize.ts).
 */

export type YamlValue = null | boolean | number | string | YamlValue[] | { [key: string]: YamlValue };
export type YamlMap = { [key: string]: YamlValue };

export class YamlError extends Error {
  constructor(
    message: string,
    /** 1-based line inside the YAML text */
    readonly line: number,
  ) {
    super(`${message} (line ${line})`);
  }
}

interface Line {
  /** 1-based */
  no: number;
  indent: number;
  /** the line without its indentation (comments not yet stripped) */
  text: string;
  raw: string;
}

const isBlankOrComment = (l: Line) => l.text === '' || l.text.startsWith('#');

export function parseYaml(source: string): YamlValue {
  const lines: Line[] = source.split(/\r?\n/).map((raw, i) => {
    const m = /^( *)(.*)$/s.exec(raw)!;
    const indent = m[1]!.length;
    const text = m[2]!.replace(/\s+$/, '');
    if (text.startsWith('\t')) throw new YamlError('Tabs are not allowed for indentation', i + 1);
    return { no: i + 1, indent, text, raw };
  });
  const p = new Parser(lines);
  p.skipBlank();
  if (p.done()) return null;
  const first = p.peek()!;
  if (first.text === '---' || first.text === '...') throw new YamlError('Document markers are not supported here', first.no);
  const value = p.block(first.indent);
  p.skipBlank();
  if (!p.done()) throw new YamlError('Unexpected content (bad indentation?)', p.peek()!.no);
  return value;
}

class Parser {
  private i = 0;

  constructor(private readonly lines: Line[]) {}

  done(): boolean {
    return this.i >= this.lines.length;
  }

  peek(): Line | undefined {
    return this.lines[this.i];
  }

  skipBlank(): void {
    while (this.i < this.lines.length && isBlankOrComment(this.lines[this.i]!)) this.i++;
  }

  /** A block node whose first line is the next significant line, indented exactly `indent`. */
  block(indent: number): YamlValue {
    this.skipBlank();
    const line = this.peek();
    if (!line) return null;
    if (isSeqItem(line.text)) return this.sequence(line.indent);
    if (findMappingColon(line.text, line.no) !== -1) return this.mapping(line.indent);
    // a lone scalar (possibly continued on more-indented lines)
    this.i++;
    return this.plainOrInline(line.text, line, indent);
  }

  private mapping(indent: number): YamlMap {
    const out: YamlMap = {};
    for (;;) {
      this.skipBlank();
      const line = this.peek();
      if (!line || line.indent < indent) break;
      if (line.indent > indent) throw new YamlError('Bad indentation of a mapping entry', line.no);
      if (isSeqItem(line.text)) throw new YamlError('A sequence item cannot appear inside a mapping here', line.no);
      const colon = findMappingColon(line.text, line.no);
      if (colon === -1) throw new YamlError(`Expected "key: value", found "${line.text}"`, line.no);
      const key = parseKey(line.text.slice(0, colon).trimEnd(), line.no);
      if (Object.prototype.hasOwnProperty.call(out, key)) throw new YamlError(`Duplicate key "${key}"`, line.no);
      const after = line.text.slice(colon + 1).trim();
      const rest = after.startsWith('#') ? '' : after;
      this.i++;
      out[key] = this.valueAfterIndicator(rest, line, indent, true);
    }
    return out;
  }

  private sequence(indent: number): YamlValue[] {
    const out: YamlValue[] = [];
    for (;;) {
      this.skipBlank();
      const line = this.peek();
      if (!line || line.indent < indent) break;
      if (line.indent > indent) throw new YamlError('Bad indentation of a sequence item', line.no);
      if (!isSeqItem(line.text)) break;
      const afterDash = line.text.slice(1);
      const pad = afterDash.length - afterDash.trimStart().length;
      const rest = afterDash.trimStart();
      if (rest === '' || rest.startsWith('#')) {
        this.i++;
        out.push(this.nestedOrNull(indent, false));
        continue;
      }
      const column = indent + 1 + pad;
      if (isSeqItem(rest) || findMappingColon(rest, line.no) !== -1) {
        // `- key: value` or `- - x`: the item is a block node starting at the content's column
        this.lines[this.i] = { ...line, indent: column, text: rest };
        out.push(this.block(column));
        continue;
      }
      this.i++;
      out.push(this.valueAfterIndicator(rest, line, indent, false));
    }
    return out;
  }

  /**
   * The value after `key:` or `- ` (trimmed, comments still in place): inline text, a block scalar,
   * or a nested block (or null).
   */
  private valueAfterIndicator(rest: string, line: Line, indent: number, inMapping: boolean): YamlValue {
    if (rest === '') return this.nestedOrNull(indent, inMapping);
    if (/^[|>]/.test(rest)) return this.blockScalar(rest, line, indent);
    return this.plainOrInline(rest, line, indent);
  }

  private nestedOrNull(indent: number, inMapping: boolean): YamlValue {
    this.skipBlank();
    const next = this.peek();
    if (!next) return null;
    if (next.indent > indent) return this.block(next.indent);
    // `key:` followed by `- item` at the same indentation is a sequence value (common YAML style)
    if (inMapping && next.indent === indent && isSeqItem(next.text)) return this.sequence(indent);
    return null;
  }

  private plainOrInline(text: string, line: Line, indent: number): YamlValue {
    const first = text[0]!;
    if (first === '[' || first === '{' || first === '"' || first === "'") {
      const r = new InlineReader(text, line.no);
      const v = r.value(false);
      r.end();
      return v;
    }
    let plain = stripComment(text, line.no).trim();
    checkPlain(plain, line.no);
    // continuation lines of a multi-line plain scalar
    while (!this.done()) {
      const next = this.peek()!;
      if (next.text === '' || next.indent <= indent || next.text.startsWith('#')) break;
      if (findMappingColon(next.text, next.no) !== -1 || isSeqItem(next.text)) throw new YamlError('Bad indentation (a mapping or sequence cannot continue a scalar)', next.no);
      const more = stripComment(next.text, next.no).trim();
      checkPlain(more, next.no);
      plain += ' ' + more;
      this.i++;
    }
    return resolvePlain(plain);
  }

  private blockScalar(header: string, line: Line, indent: number): string {
    const m = /^([|>])([+-]?)([1-9]?)([+-]?)\s*(#.*)?$/.exec(header);
    if (!m) throw new YamlError(`Malformed block scalar header "${header}"`, line.no);
    const folded = m[1] === '>';
    const chomp = m[2] || m[4] || '';
    const explicit = m[3] ? indent + Number(m[3]) : null;
    const body: string[] = [];
    let contentIndent = explicit;
    while (!this.done()) {
      const next = this.peek()!;
      if (next.text === '') {
        body.push('');
        this.i++;
        continue;
      }
      if (contentIndent === null) {
        if (next.indent <= indent) break;
        contentIndent = next.indent;
      }
      if (next.indent < contentIndent) {
        if (next.indent > indent) throw new YamlError('Bad indentation inside a block scalar', next.no);
        break;
      }
      body.push(next.raw.slice(contentIndent).replace(/\s+$/, ''));
      this.i++;
    }
    // trailing blank lines belong to chomping, not content
    let trailing = 0;
    while (body.length && body[body.length - 1] === '') {
      body.pop();
      trailing++;
    }
    let text: string;
    if (folded) {
      text = '';
      body.forEach((l, idx) => {
        if (idx === 0) text = l;
        else if (l === '' || body[idx - 1] === '' || /^\s/.test(l)) text += '\n' + l;
        else text += ' ' + l;
      });
    } else text = body.join('\n');
    if (body.length === 0) return chomp === '+' ? '\n'.repeat(trailing) : '';
    if (chomp === '-') return text;
    if (chomp === '+') return text + '\n' + '\n'.repeat(trailing);
    return text + '\n';
  }
}

function isSeqItem(text: string): boolean {
  return text === '-' || text.startsWith('- ');
}

/**
 * Index of the `:` that makes this line a mapping entry (followed by a space or the end), outside
 * quotes and before any comment; -1 when the line is not `key: …`. Flow collections at the start
 * are values, not keys.
 */
function findMappingColon(text: string, lineNo: number): number {
  if (text.startsWith('[') || text.startsWith('{')) return -1;
  let i = 0;
  if (text.startsWith('"') || text.startsWith("'")) {
    const q = text[0]!;
    i = 1;
    for (; i < text.length; i++) {
      if (q === '"' && text[i] === '\\') {
        i++;
        continue;
      }
      if (text[i] === q) {
        if (q === "'" && text[i + 1] === "'") {
          i++;
          continue;
        }
        break;
      }
    }
    if (i >= text.length) return -1; // an unterminated quoted scalar is reported by the value parser
    const after = text.slice(i + 1);
    const m = /^\s*:(\s|$)/.exec(after);
    return m ? i + 1 + after.indexOf(':') : -1;
  }
  for (; i < text.length; i++) {
    const c = text[i]!;
    if (c === '#' && (i === 0 || /\s/.test(text[i - 1]!))) return -1;
    if (c === ':' && (i + 1 === text.length || /\s/.test(text[i + 1]!))) {
      if (i === 0) throw new YamlError('Empty mapping key', lineNo);
      return i;
    }
  }
  return -1;
}

function parseKey(raw: string, lineNo: number): string {
  if (raw.startsWith('"') || raw.startsWith("'")) {
    const r = new InlineReader(raw, lineNo);
    const v = r.value(false);
    r.end();
    return String(v);
  }
  if (/^[?&*!|>%@`]/.test(raw) || raw.startsWith('- ')) throw new YamlError(`Unsupported mapping key "${raw}"`, lineNo);
  return raw;
}

/** Removes a ` # comment` from unquoted text. */
function stripComment(text: string, _lineNo: number): string {
  if (text.startsWith('#')) return '';
  const m = /\s#/.exec(text);
  return m ? text.slice(0, m.index) : text;
}

function checkPlain(plain: string, lineNo: number): void {
  if (plain === '') return;
  if (/^[&*!]/.test(plain)) throw new YamlError('Anchors, aliases and tags are not supported', lineNo);
  if (/^[@`%]/.test(plain)) throw new YamlError(`A plain scalar cannot start with "${plain[0]}"`, lineNo);
  if (/^[\]}]/.test(plain) || /^,/.test(plain)) throw new YamlError(`Unexpected "${plain[0]}"`, lineNo);
  if (/^[-?](\s|$)/.test(plain)) throw new YamlError(`A block ${plain[0] === '-' ? 'sequence' : 'mapping key'} is not allowed here`, lineNo);
  if (/:(\s|$)/.test(plain)) throw new YamlError('Mapping values are not allowed in this context', lineNo);
}

const INT = /^[-+]?(0|[1-9][0-9]*)$/;
const FLOAT = /^[-+]?(\d+\.\d*|\.\d+|\d+)([eE][-+]?\d+)?$/;

function resolvePlain(s: string): YamlValue {
  if (s === '' || s === '~' || s === 'null' || s === 'Null' || s === 'NULL') return null;
  if (s === 'true' || s === 'True' || s === 'TRUE') return true;
  if (s === 'false' || s === 'False' || s === 'FALSE') return false;
  if (INT.test(s)) {
    const n = Number(s);
    return Number.isSafeInteger(n) ? n : s;
  }
  if (/^0x[0-9a-fA-F]+$/.test(s)) return Number.parseInt(s.slice(2), 16);
  if (FLOAT.test(s) && !/^[-+]?0\d/.test(s)) return Number(s);
  return s;
}

/** Reads flow collections and quoted scalars from one line. */
class InlineReader {
  private pos = 0;

  constructor(
    private readonly text: string,
    private readonly lineNo: number,
  ) {}

  private fail(message: string): never {
    throw new YamlError(message, this.lineNo);
  }

  private ws(): void {
    while (this.pos < this.text.length && /\s/.test(this.text[this.pos]!)) this.pos++;
  }

  /** Only whitespace or a comment may follow. */
  end(): void {
    this.ws();
    if (this.pos < this.text.length && this.text[this.pos] !== '#') this.fail(`Unexpected text after a value: "${this.text.slice(this.pos)}"`);
  }

  value(inFlow: boolean): YamlValue {
    this.ws();
    const c = this.text[this.pos];
    if (c === undefined) return inFlow ? this.fail('Unexpected end of a flow collection') : null;
    if (c === '[') return this.flowSeq();
    if (c === '{') return this.flowMap();
    if (c === '"') return this.doubleQuoted();
    if (c === "'") return this.singleQuoted();
    return this.flowPlain(inFlow);
  }

  private flowPlain(inFlow: boolean): YamlValue {
    const start = this.pos;
    while (this.pos < this.text.length) {
      const c = this.text[this.pos]!;
      if (inFlow && (c === ',' || c === ']' || c === '}')) break;
      if (c === ':' && (this.pos + 1 === this.text.length || /[\s,\]}]/.test(this.text[this.pos + 1]!)) && inFlow) break;
      if (c === '#' && this.pos > start && /\s/.test(this.text[this.pos - 1]!)) break;
      this.pos++;
    }
    const plain = this.text.slice(start, this.pos).trim();
    checkPlain(plain, this.lineNo);
    return resolvePlain(plain);
  }

  private flowSeq(): YamlValue[] {
    this.pos++; // [
    const out: YamlValue[] = [];
    this.ws();
    if (this.text[this.pos] === ']') {
      this.pos++;
      return out;
    }
    for (;;) {
      out.push(this.value(true));
      this.ws();
      const c = this.text[this.pos];
      if (c === ',') {
        this.pos++;
        this.ws();
        if (this.text[this.pos] === ']') {
          this.pos++;
          return out;
        }
        continue;
      }
      if (c === ']') {
        this.pos++;
        return out;
      }
      this.fail(c === undefined ? 'Unterminated flow sequence (missing "]")' : `Unexpected "${c}" in a flow sequence`);
    }
  }

  private flowMap(): YamlMap {
    this.pos++; // {
    const out: YamlMap = {};
    this.ws();
    if (this.text[this.pos] === '}') {
      this.pos++;
      return out;
    }
    for (;;) {
      const key = this.value(true);
      this.ws();
      if (this.text[this.pos] !== ':') this.fail(this.pos >= this.text.length ? 'Unterminated flow mapping (missing "}")' : 'Expected ":" in a flow mapping');
      this.pos++;
      const k = key === null ? '' : String(key);
      if (Object.prototype.hasOwnProperty.call(out, k)) this.fail(`Duplicate key "${k}"`);
      this.ws();
      const c = this.text[this.pos];
      out[k] = c === ',' || c === '}' ? null : this.value(true);
      this.ws();
      const sep = this.text[this.pos];
      if (sep === ',') {
        this.pos++;
        this.ws();
        if (this.text[this.pos] === '}') {
          this.pos++;
          return out;
        }
        continue;
      }
      if (sep === '}') {
        this.pos++;
        return out;
      }
      this.fail(sep === undefined ? 'Unterminated flow mapping (missing "}")' : `Unexpected "${sep}" in a flow mapping`);
    }
  }

  private singleQuoted(): string {
    this.pos++;
    let out = '';
    for (;;) {
      if (this.pos >= this.text.length) this.fail('Unterminated single-quoted string');
      const c = this.text[this.pos]!;
      if (c === "'") {
        if (this.text[this.pos + 1] === "'") {
          out += "'";
          this.pos += 2;
          continue;
        }
        this.pos++;
        return out;
      }
      out += c;
      this.pos++;
    }
  }

  private doubleQuoted(): string {
    this.pos++;
    let out = '';
    const escapes: Record<string, string> = { n: '\n', t: '\t', r: '\r', '"': '"', '\\': '\\', '/': '/', '0': '\0', b: '\b', f: '\f', e: '\x1b', ' ': ' ', _: '\u00a0', N: '\u0085' };
    for (;;) {
      if (this.pos >= this.text.length) this.fail('Unterminated double-quoted string');
      const c = this.text[this.pos]!;
      if (c === '"') {
        this.pos++;
        return out;
      }
      if (c === '\\') {
        const e = this.text[this.pos + 1];
        if (e === undefined) this.fail('Unterminated double-quoted string');
        if (e === 'x' || e === 'u' || e === 'U') {
          const len = e === 'x' ? 2 : e === 'u' ? 4 : 8;
          const hex = this.text.slice(this.pos + 2, this.pos + 2 + len);
          if (!new RegExp(`^[0-9a-fA-F]{${len}}$`).test(hex)) this.fail(`Bad escape \\${e}${hex}`);
          out += String.fromCodePoint(Number.parseInt(hex, 16));
          this.pos += 2 + len;
          continue;
        }
        const rep = escapes[e];
        if (rep === undefined) this.fail(`Unknown escape \\${e}`);
        out += rep;
        this.pos += 2;
        continue;
      }
      out += c;
      this.pos++;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Serializing

const PLAIN_SAFE = /^[A-Za-z0-9_/(][^\n]*$/;

function scalarText(v: null | boolean | number | string): string {
  if (v === null) return 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : 'null';
  if (
    PLAIN_SAFE.test(v) &&
    v === v.trim() &&
    !/:(\s|$)/.test(v) &&
    !/\s#/.test(v) &&
    resolvePlain(v) === v
  ) {
    return v;
  }
  // a JSON string is a valid YAML double-quoted scalar
  return JSON.stringify(v);
}

function keyText(k: string): string {
  return /^[A-Za-z0-9_][A-Za-z0-9_.\-]*$/.test(k) && resolvePlain(k) === k ? k : JSON.stringify(k);
}

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function normalize(v: unknown): YamlValue {
  if (v === undefined) return null;
  if (v === null || typeof v === 'boolean' || typeof v === 'number' || typeof v === 'string') return v;
  if (Array.isArray(v)) return v.map(normalize);
  if (isMap(v)) return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined).map(([k, x]) => [k, normalize(x)]));
  return String(v);
}

function emit(v: YamlValue, indent: number, out: string[]): void {
  const pad = ' '.repeat(indent);
  if (Array.isArray(v)) {
    for (const item of v) {
      if (Array.isArray(item) && item.length) {
        out.push(`${pad}-`);
        emit(item, indent + 2, out);
      } else if (isMap(item) && Object.keys(item).length) {
        const sub: string[] = [];
        emit(item, indent + 2, sub);
        sub[0] = `${pad}- ${sub[0]!.slice(indent + 2)}`;
        out.push(...sub);
      } else out.push(`${pad}- ${inline(item)}`);
    }
    return;
  }
  if (isMap(v)) {
    for (const [k, item] of Object.entries(v)) {
      if ((Array.isArray(item) || isMap(item)) && Object.keys(item).length) {
        out.push(`${pad}${keyText(k)}:`);
        emit(item, indent + 2, out);
      } else out.push(`${pad}${keyText(k)}: ${inline(item)}`);
    }
    return;
  }
  out.push(pad + inline(v));
}

function inline(v: YamlValue): string {
  if (Array.isArray(v)) return '[]';
  if (isMap(v)) return '{}';
  return scalarText(v);
}

/** Block-style YAML for a header object (ends with a newline; `{}` is the empty string). */
export function stringifyYaml(value: unknown): string {
  const v = normalize(value);
  if (isMap(v) && Object.keys(v).length === 0) return '';
  const out: string[] = [];
  emit(v, 0, out);
  return out.join('\n') + '\n';
}

// ---------------------------------------------------------------------------------------------
// Page files

export class FrontMatterError extends Error {
  constructor(
    message: string,
    /** 1-based line in the page file, when known */
    readonly line: number | null,
  ) {
    super(message);
  }
}

export interface PageFileContent {
  header: YamlMap;
  /** the markdown after the front matter */
  content: string;
}

/**
 * Splits and parses a page file. No leading `---` line: no header, all content. A header that is
 * not valid YAML, not a mapping, or not closed by a second `---` is a FrontMatterError.
 */
export function parsePageFile(text: string): PageFileContent {
  const src = text.startsWith('\ufeff') ? text.slice(1) : text;
  const open = /^---[ \t]*\r?\n/.exec(src);
  if (!open) return { header: {}, content: src };
  const rest = src.slice(open[0].length);
  const close = /^---[ \t]*(\r?\n|$)/m.exec(rest);
  if (!close) throw new FrontMatterError('The front matter is not closed by a "---" line.', 1);
  const yaml = rest.slice(0, close.index);
  let content = rest.slice(close.index + close[0].length);
  content = content.replace(/^\r?\n/, '');
  let header: YamlValue;
  try {
    header = parseYaml(yaml);
  } catch (err) {
    if (err instanceof YamlError) throw new FrontMatterError(`Invalid YAML in the front matter: ${err.message}`, err.line + 1);
    throw err;
  }
  if (header === null) header = {};
  if (!isMap(header)) throw new FrontMatterError('The front matter must be a mapping of header fields.', 2);
  return { header: header as YamlMap, content };
}

/** The text of a page file: `---`, the header as YAML, `---`, a blank line, the markdown. */
export function serializePageFile(header: Record<string, unknown>, content: string): string {
  return `---\n${stringifyYaml(header)}---\n\n${content}`;
}
