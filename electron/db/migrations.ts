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
  {
    version: 5,
    name: 'offline mirror and search',
    sql: `
      -- The page cache gets an INTEGER PRIMARY KEY: FTS5 external content joins on rowids, and
      -- VACUUM may renumber the implicit rowids of a table without one.
      CREATE TABLE pages_v5 (
        id                INTEGER PRIMARY KEY,
        site_id           TEXT NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
        route             TEXT NOT NULL,
        lang              TEXT NOT NULL DEFAULT '',
        title             TEXT NOT NULL,
        slug              TEXT NOT NULL,
        template          TEXT NOT NULL,
        published         INTEGER NOT NULL,
        visible           INTEGER NOT NULL,
        routable          INTEGER NOT NULL,
        sort_order        INTEGER,
        has_children      INTEGER NOT NULL DEFAULT 0,
        parent            TEXT NOT NULL,
        modified          TEXT,
        date              TEXT,
        translated        TEXT,
        untranslated      TEXT,
        explicit          TEXT,            -- JSON: languages with a file of their own (the matrix)
        has_default_file  INTEGER,
        header            TEXT,
        header_text       TEXT,            -- the header's values as words, for search
        content           TEXT,
        media             TEXT,
        language          TEXT,
        etag              TEXT,
        fetched_at        TEXT NOT NULL,
        full_at           TEXT,
        -- the mirror's quick check: the list-visible fields of the full copy, and the server's
        -- time (Date header) when that copy was last known current
        full_sig          TEXT,
        verified_at       TEXT,
        UNIQUE (site_id, route, lang)
      );
      INSERT INTO pages_v5 (site_id, route, lang, title, slug, template, published, visible, routable, sort_order, has_children, parent,
        modified, date, translated, untranslated, header, header_text, content, media, language, etag, fetched_at, full_at)
      SELECT site_id, route, lang, title, slug, template, published, visible, routable, sort_order, has_children, parent,
        modified, date, translated, untranslated, header,
        CASE WHEN json_valid(header) THEN (SELECT group_concat(value, ' ') FROM json_tree(pages.header) WHERE type IN ('text', 'integer', 'real')) END,
        content, media, language, etag, fetched_at, full_at
      FROM pages;
      DROP TABLE pages;
      ALTER TABLE pages_v5 RENAME TO pages;
      CREATE INDEX pages_parent ON pages (site_id, lang, parent);

      -- offline search over every cached page of every site; kept in step by the triggers below
      CREATE VIRTUAL TABLE pages_fts USING fts5 (
        title, header_text, content,
        content = 'pages', content_rowid = 'id',
        tokenize = 'unicode61 remove_diacritics 2'
      );
      -- titles weigh most, then header values, then the text
      INSERT INTO pages_fts (pages_fts, rank) VALUES ('rank', 'bm25(10.0, 3.0, 1.0)');
      INSERT INTO pages_fts (pages_fts) VALUES ('rebuild');
      CREATE TRIGGER pages_fts_insert AFTER INSERT ON pages BEGIN
        INSERT INTO pages_fts (rowid, title, header_text, content) VALUES (new.id, new.title, new.header_text, new.content);
      END;
      CREATE TRIGGER pages_fts_delete AFTER DELETE ON pages BEGIN
        INSERT INTO pages_fts (pages_fts, rowid, title, header_text, content) VALUES ('delete', old.id, old.title, old.header_text, old.content);
      END;
      -- only when the words change: a 304 that refreshes fetched_at leaves the index alone
      CREATE TRIGGER pages_fts_update AFTER UPDATE OF title, header_text, content ON pages
        WHEN old.title IS NOT new.title OR old.header_text IS NOT new.header_text OR old.content IS NOT new.content
      BEGIN
        INSERT INTO pages_fts (pages_fts, rowid, title, header_text, content) VALUES ('delete', old.id, old.title, old.header_text, old.content);
        INSERT INTO pages_fts (rowid, title, header_text, content) VALUES (new.id, new.title, new.header_text, new.content);
      END;

      -- "Make available offline": one run per site at a time, resumable after a restart
      CREATE TABLE mirror_runs (
        id             INTEGER PRIMARY KEY,
        site_id        TEXT NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
        -- running: under way, or stopped by a quit or crash (resumed at the next start)
        state          TEXT NOT NULL CHECK (state IN ('running', 'cancelled', 'failed', 'done')),
        phase          TEXT NOT NULL CHECK (phase IN ('listing', 'reading', 'cleaning', 'done')),
        plan           TEXT NOT NULL,   -- JSON: scope, languages, default language, options
        list_cursor    TEXT,            -- JSON: where the listing goes on after a restart
        listed         INTEGER NOT NULL DEFAULT 0,   -- list rows seen
        total          INTEGER NOT NULL DEFAULT 0,
        done           INTEGER NOT NULL DEFAULT 0,
        unchanged      INTEGER NOT NULL DEFAULT 0,
        failed         INTEGER NOT NULL DEFAULT 0,
        removed        INTEGER NOT NULL DEFAULT 0,
        held           INTEGER NOT NULL DEFAULT 0,   -- removals that wait for a confirmation
        error          TEXT,
        started_at     TEXT NOT NULL,
        updated_at     TEXT NOT NULL,
        finished_at    TEXT
      );
      CREATE INDEX mirror_runs_site ON mirror_runs (site_id, id);
      -- every page and language a run reads; 'todo' until its answer is in the cache
      CREATE TABLE mirror_items (
        id        INTEGER PRIMARY KEY,   -- listing order
        run_id    INTEGER NOT NULL REFERENCES mirror_runs (id) ON DELETE CASCADE,
        route     TEXT NOT NULL,
        lang      TEXT NOT NULL,
        state     TEXT NOT NULL DEFAULT 'todo' CHECK (state IN ('todo', 'fetched', 'unchanged', 'gone', 'failed')),
        attempts  INTEGER NOT NULL DEFAULT 0,
        error     TEXT,
        transient INTEGER NOT NULL DEFAULT 0,   -- a failure worth another try within the run
        UNIQUE (run_id, route, lang)
      );
      CREATE INDEX mirror_items_state ON mirror_items (run_id, state);

      -- small answers worth having offline (the site's languages), per site and key
      CREATE TABLE site_cache (
        site_id     TEXT NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
        key         TEXT NOT NULL,
        value       TEXT NOT NULL,
        fetched_at  TEXT NOT NULL,
        PRIMARY KEY (site_id, key)
      );
    `,
  },
  {
    version: 6,
    name: 'store cache and sessions',
    sql: `
      -- a store's pets as last read: the whole pet as JSON, status apart for offline filtering
      CREATE TABLE store_pets (
        site_id     TEXT NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
        pet_id      INTEGER NOT NULL,
        name        TEXT NOT NULL,
        status      TEXT,
        pet         TEXT NOT NULL,
        fetched_at  TEXT NOT NULL,
        PRIMARY KEY (site_id, pet_id)
      );
      CREATE INDEX store_pets_status ON store_pets (site_id, status);

      -- the inventory map (status -> count) as last read
      CREATE TABLE store_inventory (
        site_id     TEXT PRIMARY KEY REFERENCES sites (id) ON DELETE CASCADE,
        counts      TEXT NOT NULL,
        fetched_at  TEXT NOT NULL
      );

      -- who is logged in to each store site and until when; the key or session token is in the keychain
      CREATE TABLE store_sessions (
        site_id       TEXT PRIMARY KEY REFERENCES sites (id) ON DELETE CASCADE,
        via           TEXT NOT NULL CHECK (via IN ('password', 'apikey')),
        username      TEXT,
        state         TEXT NOT NULL CHECK (state IN ('signed_in', 'expired')),
        reason        TEXT,
        expires_at    TEXT,
        rate_limit    INTEGER,
        signed_in_at  TEXT
      );
    `,
  },
  {
    version: 7,
    name: 'page positions and public routes',
    sql: `
      -- a page's place among its siblings in the site's own order, as the tree last read that level:
      -- the site may order a level by its parent's collection settings, which no other column tells
      ALTER TABLE pages ADD COLUMN position INTEGER;
      -- the page's public address when it differs from its structural route (the home page: '/')
      ALTER TABLE pages ADD COLUMN public_route TEXT;
    `,
  },
  {
    version: 8,
    name: 'mirror: list rows seen',
    sql: `
      -- per page and language, a hash of the list row the mirror saw before its last read of the
      -- page, and the server's time (its Date header) of that read; null until read. A later row
      -- with the same hash, after the second of the page's change, vouches for the cached copy
      -- (the real service never answers a read with 304)
      CREATE TABLE mirror_seen (
        site_id   TEXT NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
        route     TEXT NOT NULL,
        lang      TEXT NOT NULL,
        row_hash  TEXT NOT NULL,
        read_at   TEXT,
        PRIMARY KEY (site_id, route, lang)
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 9,
    name: 'search over drafts',
    sql: `
      -- offline search covers the person's own unsynced words too: a draft's title, header values and
      -- text (its "mine"), indexed apart from the page cache and kept in step by the triggers below
      CREATE VIRTUAL TABLE drafts_fts USING fts5 (
        title, header_text, content,
        tokenize = 'unicode61 remove_diacritics 2'
      );
      INSERT INTO drafts_fts (drafts_fts, rank) VALUES ('rank', 'bm25(10.0, 3.0, 1.0)');
      INSERT INTO drafts_fts (rowid, title, header_text, content)
        SELECT id, json_extract(mine, '$.title'),
          (SELECT group_concat(value, ' ') FROM json_tree(drafts.mine, '$.header') WHERE type IN ('text', 'integer', 'real')),
          json_extract(mine, '$.content')
        FROM drafts WHERE json_valid(mine);
      CREATE TRIGGER drafts_fts_insert AFTER INSERT ON drafts WHEN json_valid(new.mine) BEGIN
        INSERT INTO drafts_fts (rowid, title, header_text, content) VALUES (new.id, json_extract(new.mine, '$.title'),
          (SELECT group_concat(value, ' ') FROM json_tree(new.mine, '$.header') WHERE type IN ('text', 'integer', 'real')),
          json_extract(new.mine, '$.content'));
      END;
      CREATE TRIGGER drafts_fts_delete AFTER DELETE ON drafts BEGIN
        DELETE FROM drafts_fts WHERE rowid = old.id;
      END;
      -- only when the words may change (a state change leaves the index alone)
      CREATE TRIGGER drafts_fts_update AFTER UPDATE OF mine ON drafts WHEN old.mine IS NOT new.mine BEGIN
        DELETE FROM drafts_fts WHERE rowid = old.id;
        INSERT INTO drafts_fts (rowid, title, header_text, content) SELECT new.id, json_extract(new.mine, '$.title'),
          (SELECT group_concat(value, ' ') FROM json_tree(new.mine, '$.header') WHERE type IN ('text', 'integer', 'real')),
          json_extract(new.mine, '$.content')
        WHERE json_valid(new.mine);
      END;
    `,
  },
  {
    version: 10,
    name: 'mirror: pages the API cannot read',
    sql: `
      -- a run's item may be 'unreadable': the site lists the page but its API cannot read it by its
      -- route (GET /pages/docs/media is the media list of /docs); the copy keeps the list row, the
      -- item keeps the reason, and the run is not called failed for it. SQLite cannot change a
      -- CHECK in place: the table is made again
      CREATE TABLE mirror_items_v10 (
        id        INTEGER PRIMARY KEY,
        run_id    INTEGER NOT NULL REFERENCES mirror_runs (id) ON DELETE CASCADE,
        route     TEXT NOT NULL,
        lang      TEXT NOT NULL,
        state     TEXT NOT NULL DEFAULT 'todo' CHECK (state IN ('todo', 'fetched', 'unchanged', 'gone', 'failed', 'unreadable')),
        attempts  INTEGER NOT NULL DEFAULT 0,
        error     TEXT,
        transient INTEGER NOT NULL DEFAULT 0,
        UNIQUE (run_id, route, lang)
      );
      INSERT INTO mirror_items_v10 (id, run_id, route, lang, state, attempts, error, transient)
        SELECT id, run_id, route, lang, state, attempts, error, transient FROM mirror_items;
      DROP TABLE mirror_items;
      ALTER TABLE mirror_items_v10 RENAME TO mirror_items;
      CREATE INDEX mirror_items_state ON mirror_items (run_id, state);
    `,
  },
  {
    version: 11,
    name: 'sites: plain HTTP by choice',
    sql: `
      -- the person chose plain http:// to another computer for this site (what is sent travels
      -- readable). Sites added before the choice existed that use it keep working and now say so
      ALTER TABLE sites ADD COLUMN allow_plain_http INTEGER NOT NULL DEFAULT 0;
      UPDATE sites SET allow_plain_http = 1
        WHERE lower(base_url) LIKE 'http://%'
          AND NOT (lower(base_url) LIKE 'http://localhost%' OR lower(base_url) LIKE 'http://127.%' OR lower(base_url) LIKE 'http://[::1]%');
    `,
  },
  {
    version: 12,
    name: 'the audit trail kept offline',
    sql: `
      -- a kept trail: a CMS site's (kept from it, imports may add to it) or an imported file's own.
      -- A site copy's site_id is set null when the site row goes (the Host forgets the copy first;
      -- one left so is forgotten at the next start). A copy being forgotten (forgotten = 1) is
      -- hidden at once and its events removed in batches, then the row.
      CREATE TABLE audit_copies (
        id            INTEGER PRIMARY KEY,
        kind          TEXT NOT NULL CHECK (kind IN ('site', 'file')),
        site_id       TEXT REFERENCES sites (id) ON DELETE SET NULL,
        name          TEXT NOT NULL,
        -- the person's retention: everything, the last N days, at most N events
        keep_kind     TEXT NOT NULL DEFAULT 'all' CHECK (keep_kind IN ('all', 'days', 'count')),
        keep_value    INTEGER,
        kept_at       TEXT,
        -- where keeping goes on from: the site's events up to through_id are kept (or were gone);
        -- through_ts is the newest time kept, window_count the site's events from through_ts minus
        -- the keep's window on when the last keep finished (a second keep compares, and moves nothing)
        through_id    INTEGER,
        through_ts    INTEGER,
        window_count  INTEGER,
        -- a keep cut short (JSON, audit-copy/keep.ts): the next keep goes on from it
        run           TEXT,
        forgotten     INTEGER NOT NULL DEFAULT 0,
        created_at    TEXT NOT NULL
      );
      CREATE UNIQUE INDEX audit_copies_site ON audit_copies (site_id) WHERE site_id IS NOT NULL AND forgotten = 0;
      CREATE UNIQUE INDEX audit_copies_name ON audit_copies (lower(trim(name))) WHERE kind = 'file' AND forgotten = 0;

      -- what an event is (its code, severity and target type) and who did it with what (the
      -- actor's id, name and roles, how they signed in, their user agent): a trail repeats a few
      -- dozen of each a million times, so an event row holds two small numbers instead of eight
      -- strings (a row half as wide, the tally a few numbers per hour). '' is a missing value. An
      -- entry no kept event uses any more goes (audit-copy: prune), with its words: names and user
      -- agents are personal data. AUTOINCREMENT: an id is never given to another entry.
      CREATE TABLE audit_kinds (
        id           INTEGER PRIMARY KEY AUTOINCREMENT,
        event        TEXT NOT NULL,
        severity     TEXT NOT NULL,
        target_type  TEXT NOT NULL,
        UNIQUE (event, severity, target_type)
      );
      CREATE TABLE audit_actors (
        id           INTEGER PRIMARY KEY AUTOINCREMENT,
        actor_id     TEXT NOT NULL,
        actor_name   TEXT NOT NULL,
        actor_roles  TEXT NOT NULL,
        auth_method  TEXT NOT NULL,
        user_agent   TEXT NOT NULL,
        UNIQUE (actor_id, actor_name, actor_roles, auth_method, user_agent)
      );
      -- the words of those entries (a kind's event code; an actor's name and user agent), rowid
      -- 2 × a kind's id or 2 × an actor's id + 1: a searched word found here is also looked for as
      -- the entry's own word in the events' index (zzk<id>, zza<id>: audit-copy/fts.ts)
      CREATE VIRTUAL TABLE audit_labels USING fts5 (words, tokenize = 'unicode61 remove_diacritics 2');
      INSERT INTO audit_labels (audit_labels, rank) VALUES ('secure-delete', 1);

      -- every kept event. id is the event's key, time × 1000 + a slot within the millisecond: the
      -- timeline of all copies in one order, so newest first is key order, the full-text index
      -- answers newest first by its rowids, and a page is a key range. event_id is the site's own
      -- id (unique per copy: what keeping and importing never add twice). ts is null when it is the
      -- key's millisecond (id / 1000; only more than 1,000 events in one millisecond set it). No
      -- index per filter: audit_tally knows which hours hold the events a filter matches, and a
      -- filtered page reads those hours' key ranges (an index per filter column cost more than the
      -- rows themselves at every insert of a million-event import).
      CREATE TABLE audit_events (
        id           INTEGER PRIMARY KEY,
        copy_id      INTEGER NOT NULL REFERENCES audit_copies (id),
        event_id     INTEGER NOT NULL,
        kind         INTEGER NOT NULL,
        actor        INTEGER NOT NULL,
        ip           TEXT,
        target_id    TEXT,
        status       INTEGER,
        context      TEXT,
        ts           INTEGER
      );
      CREATE UNIQUE INDEX audit_events_copy_event ON audit_events (copy_id, event_id);

      -- the words full text searches, per event: its kind's and actor's own word (their code, name
      -- and user agent are words of audit_labels, said once per entry, not once per event), the
      -- target, the address as one word (audit-copy/fts.ts: found whole or by its start; its four
      -- numbers are not words of their own) and the context (JSON as Sitedesk writes it, its
      -- escaped line breaks and tabs made spaces). An external-content
      -- index over this view: rows are added and removed by rowid in the repository's batches, and
      -- with secure-delete a removed event's words leave the index (and the file) at once: they
      -- are personal data. copy_id: the background indexing of an import reads a copy's key range.
      CREATE VIEW audit_words (id, words, copy_id) AS
        SELECT id, concat_ws(' ', 'zzk' || kind, 'zza' || actor, target_id, 'zzip' || replace(replace(lower(ip), '.', 'x'), ':', 'x'),
          replace(replace(replace(context, '\\n', ' '), '\\r', ' '), '\\t', ' ')), copy_id
        FROM audit_events;
      -- columnsize=0: no per-row sizes (they serve ranking; results are in time order)
      CREATE VIRTUAL TABLE audit_fts USING fts5 (
        words,
        content = 'audit_words', content_rowid = 'id',
        tokenize = 'unicode61 remove_diacritics 2', columnsize = 0
      );
      INSERT INTO audit_fts (audit_fts, rank) VALUES ('secure-delete', 1);
      -- segments merged eight at a time, not four: a million-event import rewrote its words less often
      INSERT INTO audit_fts (audit_fts, rank) VALUES ('automerge', 8);

      -- an import's events whose words are not in audit_fts yet: an import stores its rows at full
      -- speed and their words are added afterwards, in short steps between the Host's other work,
      -- newest first (db/repos/audit-copy.ts: indexText), going on after a restart. Every event of
      -- copy_id with a key from lo to hi is not in the index, every other event is; n counts them.
      -- A copy's ranges never overlap; a search with words while some remain says so.
      CREATE TABLE audit_unindexed (
        copy_id      INTEGER NOT NULL,
        lo           INTEGER NOT NULL,
        hi           INTEGER NOT NULL,
        n            INTEGER NOT NULL,
        PRIMARY KEY (copy_id, lo)
      ) WITHOUT ROWID;

      -- events counted per hour (of the key), copy, kind and actor: the totals of filtered
      -- searches, the hours a filtered page reads, and the facets, without reading a million rows
      -- (only the hours a time filter cuts are counted in audit_events). In hour order: a filtered
      -- page reads the newest hours' counts first and stops when it is full; a copy's counts are read
      -- from their own index, n in it (a total reads no row of the table).
      CREATE TABLE audit_tally (
        hour         INTEGER NOT NULL,
        copy_id      INTEGER NOT NULL,
        kind         INTEGER NOT NULL,
        actor        INTEGER NOT NULL,
        n            INTEGER NOT NULL,
        PRIMARY KEY (hour, copy_id, kind, actor)
      ) WITHOUT ROWID;
      CREATE INDEX audit_tally_copy ON audit_tally (copy_id, hour, n);
    `,
  },
  {
    version: 13,
    name: 'the offline copy of a mailing audience',
    sql: `
      -- the offline copy of a site's mailing audience (mailer/offline-copy.ts): only where the person
      -- turned it on for that site (the choice is in site_cache, 'mailer:keep'). One row per person
      -- as the table last read them (row: the contract's SubscriberRow), their page when it was
      -- opened (detail), the SHA-256 of their address (an erasure finds them by it), and the fill
      -- that last saw them (gen: a full fill removes the rows it did not see). Personal data: the
      -- database runs with secure_delete, and turning the copy off removes the rows at once.
      CREATE TABLE mailer_people (
        site_id     TEXT NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
        id          INTEGER NOT NULL,
        email_hash  TEXT NOT NULL,
        row         TEXT NOT NULL,
        detail      TEXT,
        gen         INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (site_id, id)
      ) WITHOUT ROWID;
      CREATE INDEX mailer_people_hash ON mailer_people (site_id, email_hash);
    `,
  },
  {
    version: 14,
    name: 'kept audit events told apart by their millisecond',
    sql: `
      -- an event already kept is the copy's event with the same site id at the same millisecond,
      -- found in that millisecond's keys (db/repos/audit-copy.ts), not by a second B-tree over
      -- every event: that index cost a million-event import a third of its time. The few events
      -- kept outside their millisecond's keys (more than 1,000 in one, or a slot another copy's)
      -- carry their time in ts: this index finds them.
      DROP INDEX audit_events_copy_event;
      CREATE INDEX audit_events_moved ON audit_events (ts, copy_id, event_id) WHERE ts IS NOT NULL;
    `,
  },
  {
    version: 15,
    name: 'drafts of campaigns and templates',
    sql: `
      -- a campaign or template edited here and not on the site yet (db/repos/mail-drafts.ts): the
      -- fields as read (base), as written here (mine) and, in a conflict, as the site has them now
      -- (theirs), as JSON of the contract's MailFields. The draft is its own outbox item (state,
      -- attempts, next_at): a record has one draft at most, so there is nothing to order.
      CREATE TABLE mail_drafts (
        id          INTEGER PRIMARY KEY,
        site_id     TEXT NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
        kind        TEXT NOT NULL CHECK (kind IN ('campaign', 'template')),
        remote_id   INTEGER NOT NULL,
        base        TEXT NOT NULL,
        mine        TEXT NOT NULL,
        theirs      TEXT,
        state       TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'sending', 'conflicted', 'rejected')),
        problem     TEXT,
        attempts    INTEGER NOT NULL DEFAULT 0,
        next_at     TEXT,
        last_error  TEXT,
        created_at  TEXT NOT NULL,
        updated_at  TEXT NOT NULL,
        UNIQUE (site_id, kind, remote_id)
      );
    `,
  },
];

export const LATEST_VERSION = migrations.reduce((max, m) => Math.max(max, m.version), 0);
