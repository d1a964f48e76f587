/**
 * Numbered migrations. Append only: a shipped migration is never edited, a new one is added.
 * `user_version` holds the number of the last one applied.
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const migrations: Migration[] = [
  {
    version: 1,
    name: 'sites and preferences',
    sql: `
      CREATE TABLE sites (
        id           TEXT PRIMARY KEY,
        name         TEXT NOT NULL,
        kind         TEXT NOT NULL CHECK (kind IN ('cms', 'store')),
        base_url     TEXT NOT NULL,
        environment  TEXT,
        auth_mode    TEXT NOT NULL CHECK (auth_mode IN ('password', 'apikey')),
        has_api_key  INTEGER NOT NULL DEFAULT 0,
        position     INTEGER NOT NULL,
        created_at   TEXT NOT NULL,
        updated_at   TEXT NOT NULL
      );
      -- names are compared the way people read them: "Blog" and "blog " are the same site
      CREATE UNIQUE INDEX sites_name ON sites (lower(trim(name)));
      CREATE INDEX sites_position ON sites (position);

      -- small key/value state of the app itself (window layout, settings); values are JSON
      CREATE TABLE prefs (
        key    TEXT PRIMARY KEY,
        value  TEXT NOT NULL
      );
    `,
  },
  {
    version: 2,
    name: 'sessions',
    sql: `
      -- who is signed in to each CMS site and what /me last said; the tokens themselves are in the keychain
      CREATE TABLE sessions (
        site_id   TEXT PRIMARY KEY REFERENCES sites (id) ON DELETE CASCADE,
        via       TEXT NOT NULL CHECK (via IN ('password', 'apikey')),
        username  TEXT,
        state     TEXT NOT NULL CHECK (state IN ('signed_in', 'expired')),
        reason    TEXT,
        me        TEXT,
        me_at     TEXT
      );
    `,
  },
  {
    version: 3,
    name: 'page cache',
    sql: `
      -- every page read lands here (list rows fill the summary; a full read adds header, content, etag);
      -- lang '' is the site's default language. Removing a site removes its cache (cascade).
      CREATE TABLE pages (
        site_id       TEXT NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
        route         TEXT NOT NULL,
        lang          TEXT NOT NULL DEFAULT '',
        title         TEXT NOT NULL,
        slug          TEXT NOT NULL,
        template      TEXT NOT NULL,
        published     INTEGER NOT NULL,
        visible       INTEGER NOT NULL,
        routable      INTEGER NOT NULL,
        sort_order    INTEGER,
        has_children  INTEGER NOT NULL DEFAULT 0,
        parent        TEXT NOT NULL,
        modified      TEXT,
        date          TEXT,
        translated    TEXT,            -- JSON array of codes, when known
        untranslated  TEXT,
        header        TEXT,            -- JSON; null until the page itself was read
        content       TEXT,
        media         TEXT,            -- JSON array
        language      TEXT,            -- the language the site answered in
        etag          TEXT,            -- of the plain read (the one If-Match accepts)
        fetched_at    TEXT NOT NULL,
        full_at       TEXT,            -- when header/content were last read
        PRIMARY KEY (site_id, route, lang)
      );
      CREATE INDEX pages_parent ON pages (site_id, lang, parent);
    `,
  },
  {
    version: 4,
    name: 'drafts and outbox',
    sql: `
      -- a local working copy of a page, with the base it came from (the three-way merge needs it)
      CREATE TABLE drafts (
        id            INTEGER PRIMARY KEY,
        site_id       TEXT NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
        route         TEXT NOT NULL,
        lang          TEXT NOT NULL DEFAULT '',
        -- 'pending' (waits for a push), 'conflicted' (merge view needed), 'rejected' (422: fields to fix)
        state         TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'conflicted', 'rejected')),
        base_etag     TEXT,
        base          TEXT NOT NULL,   -- JSON {title, header, content}
        mine          TEXT NOT NULL,   -- JSON {title, header, content, template?, published?, visible?}
        theirs        TEXT,            -- JSON page, when conflicted
        theirs_etag   TEXT,
        problem       TEXT,            -- JSON {message, fields?}
        created_at    TEXT NOT NULL,
        updated_at    TEXT NOT NULL,
        UNIQUE (site_id, route, lang)
      );

      -- writes waiting for the site, replayed in id order per site
      CREATE TABLE outbox (
        id            INTEGER PRIMARY KEY AUTOINCREMENT,
        site_id       TEXT NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
        op            TEXT NOT NULL CHECK (op IN ('save', 'create', 'delete', 'move', 'translate')),
        route         TEXT NOT NULL,
        payload       TEXT NOT NULL,   -- JSON, per op
        draft_id      INTEGER REFERENCES drafts (id) ON DELETE CASCADE,
        -- 'sending' is written before the request leaves: after a crash it means "may have arrived"
        state         TEXT NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'sending', 'waiting', 'parked')),
        attempts      INTEGER NOT NULL DEFAULT 0,
        next_at       TEXT,
        last_error    TEXT,
        created_at    TEXT NOT NULL
      );
      CREATE INDEX outbox_site ON outbox (site_id, id);
    `,
  },
];

export const LATEST_VERSION = migrations.reduce((max, m) => Math.max(max, m.version), 0);
