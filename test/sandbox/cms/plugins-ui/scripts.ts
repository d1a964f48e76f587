/**
 * The small scripts the demo packages ship under `admin-next/` (getgrav/grav-plugin-api
 * GpmController: fields/{type}.js, pages/{slug}.js, widgets/{slug}.js, panels/{slug}.js,
 * reports/{id}.js, modals/{id}.js), each a custom element the official client would mount. They
 * are remote code to the app: it must never run them in its own renderer. Element names are the
 * official client's: `grav-<slug>--page|widget|panel`, a field's, report's or modal's `grav-<slug>--<id>`.
 *
 * `site-health`'s page script is the probe for that: run in a frame, it tries to break out and
 * reports what happened to its parent with
 *
 *   parent.postMessage({
 *     type: 'sitedesk-probe:report', plugin: 'site-health', round,          // round: 1, 2, …
 *     results: [{probe, escaped, detail}],                                 // one row per attempt
 *   }, '*')
 *
 * where `probe` is one of `parent.document`, `parent.location`, `top.document`, `top.location`,
 * `parent.sitedesk`, `window.sitedesk` (the app's bridge: `invoke`), `localStorage`,
 * `sessionStorage`, `document.cookie`, `opener.postMessage`, `window.open`, then `indexedDB` and
 * `fetch <url>` (one per URL; these two finish later, so they come last), and `escaped` says the
 * attempt succeeded (a value read or written, a popup opened, a request sent — fetches go out
 * `no-cors`, so only the frame's CSP can stop them): in a properly sandboxed frame
 * every row says `escaped: false` with the error in `detail`. The URLs to fetch come from the
 * frame's address (`#fetch=<url>&fetch=<url>`, encoded) and from a message
 * `{type: 'sitedesk-probe:run', urls: [...]}` the parent may send, which runs the probes again.
 * It first posts `{type: 'sitedesk-probe:ready', plugin: 'site-health'}`.
 */

/** A script per package file: `plugins/<slug>/<kind>/<name>` or `themes/<slug>/fields/<type>`. */
const SCRIPTS: Record<string, string> = {
  'plugins/team-notes/fields/note-color': `// team-notes: the note-color field
customElements.define('grav-team-notes--note-color', class extends HTMLElement {
  connectedCallback() {
    const value = this.getAttribute('value') || '#ffd84d';
    this.innerHTML = '<input type="color" aria-label="Note colour">';
    this.firstElementChild.value = value;
    this.firstElementChild.addEventListener('input', (e) => this.dispatchEvent(new CustomEvent('change', { detail: e.target.value, bubbles: true })));
  }
});
`,
  'plugins/team-notes/widgets/team-notes': `// team-notes: the team chat widget
customElements.define('grav-team-notes--widget', class extends HTMLElement {
  connectedCallback() { this.textContent = 'Team chat: no new messages.'; }
});
`,
  'plugins/team-notes/panels/team-notes': `// team-notes: notes on the page being edited
customElements.define('grav-team-notes--panel', class extends HTMLElement {
  connectedCallback() { this.textContent = 'No notes on ' + (this.getAttribute('route') || 'this page') + ' yet.'; }
});
`,
  'plugins/team-notes/modals/new-note': `// team-notes: the New note dialog
customElements.define('grav-team-notes--new-note', class extends HTMLElement {
  connectedCallback() {
    this.innerHTML = '<label>Note <textarea></textarea></label><button type="button">Add</button>';
    this.querySelector('button').addEventListener('click', () => this.dispatchEvent(new CustomEvent('submit', { detail: { text: this.querySelector('textarea').value }, bubbles: true })));
  }
});
`,
  'plugins/site-health/widgets/site-health': `// site-health: the uptime widget
customElements.define('grav-site-health--widget', class extends HTMLElement {
  connectedCallback() { this.textContent = 'Uptime 99.98% over 30 days.'; }
});
`,
  'plugins/site-health/panels/site-health': `// site-health: the health of the page being edited
customElements.define('grav-site-health--panel', class extends HTMLElement {
  connectedCallback() { this.textContent = 'Page answers in 84 ms; 0 broken links.'; }
});
`,
  'plugins/site-health/reports/health-report': `// site-health: the report's own view
customElements.define('grav-site-health--health-report', class extends HTMLElement {
  set report(r) { this.textContent = r && r.message ? r.message : ''; }
});
`,
  'plugins/site-health/pages/site-health': `// site-health: the admin page. Tries to leave a sandboxed frame and reports every attempt to its parent.
(function () {
  var PLUGIN = 'site-health';
  var round = 0;
  function say(type, extra) {
    var msg = Object.assign({ type: type, plugin: PLUGIN }, extra || {});
    try { window.parent.postMessage(msg, '*'); } catch (e) { /* nowhere to report to */ }
  }
  function attempt(results, probe, fn) {
    try {
      var got = fn();
      results.push({ probe: probe, escaped: true, detail: 'reached: ' + String(got).slice(0, 120) });
    } catch (e) {
      results.push({ probe: probe, escaped: false, detail: String((e && (e.name + ': ' + e.message)) || e).slice(0, 200) });
    }
  }
  function urlsFromAddress() {
    try {
      return new URLSearchParams(String(location.hash || '').replace(/^#/, '')).getAll('fetch');
    } catch (e) { return []; }
  }
  function run(urls) {
    round += 1;
    var results = [];
    attempt(results, 'parent.document', function () { if (window.parent === window) throw new Error('no parent frame'); return window.parent.document.title; });
    attempt(results, 'parent.location', function () { if (window.parent === window) throw new Error('no parent frame'); return window.parent.location.href; });
    attempt(results, 'top.document', function () { if (window.top === window) throw new Error('no top frame'); return window.top.document.title; });
    attempt(results, 'top.location', function () { if (window.top === window) throw new Error('no top frame'); return window.top.location.href; });
    attempt(results, 'parent.sitedesk', function () { var b = window.parent.sitedesk; if (!b || typeof b.invoke !== 'function') throw new Error('no bridge on the parent'); return b.invoke('app.version', {}); });
    attempt(results, 'window.sitedesk', function () { var b = window.sitedesk; if (!b || typeof b.invoke !== 'function') throw new Error('no bridge in this frame'); return b.invoke('app.version', {}); });
    attempt(results, 'localStorage', function () { window.localStorage.setItem('probe', '1'); return window.localStorage.getItem('probe'); });
    attempt(results, 'sessionStorage', function () { window.sessionStorage.setItem('probe', '1'); return window.sessionStorage.getItem('probe'); });
    attempt(results, 'document.cookie', function () { document.cookie = 'probe=1'; if (document.cookie.indexOf('probe=1') < 0) throw new Error('the cookie did not stick'); return document.cookie; });
    attempt(results, 'opener.postMessage', function () { if (!window.opener) throw new Error('no opener'); window.opener.postMessage({ type: 'sitedesk-probe:hello' }, '*'); return 'posted'; });
    attempt(results, 'window.open', function () { var w = window.open('about:blank', '_blank'); if (!w) throw new Error('the popup was blocked'); try { w.close(); } catch (e) { /* gone */ } return 'a window opened'; });
    var idb = new Promise(function (resolve, reject) {
      try {
        if (!window.indexedDB) throw new Error('no indexedDB');
        var req = window.indexedDB.open('sitedesk-probe');
        req.onsuccess = function () { try { req.result.close(); } catch (e) { /* closed */ } resolve('a database opened'); };
        req.onerror = function () { reject(req.error || new Error('the database did not open')); };
      } catch (e) { reject(e); }
    }).then(
      function (got) { results.push({ probe: 'indexedDB', escaped: true, detail: 'reached: ' + got }); },
      function (e) { results.push({ probe: 'indexedDB', escaped: false, detail: String((e && (e.name + ': ' + e.message)) || e).slice(0, 200) }); }
    );
    var pending = [idb].concat((urls || []).map(function (url) {
      // no-cors: a request that leaves the frame at all is an escape (it may change something), readable or not
      return fetch(url, { mode: 'no-cors', credentials: 'include' }).then(
        function (r) {
          if (r.type === 'opaque') { results.push({ probe: 'fetch ' + url, escaped: true, detail: 'the request went out (an opaque answer)' }); return; }
          return r.text().then(function (t) { results.push({ probe: 'fetch ' + url, escaped: true, detail: 'HTTP ' + r.status + ': ' + t.slice(0, 80) }); });
        },
        function (e) { results.push({ probe: 'fetch ' + url, escaped: false, detail: String((e && (e.name + ': ' + e.message)) || e).slice(0, 200) }); }
      );
    }));
    return Promise.all(pending).then(function () { say('sitedesk-probe:report', { round: round, results: results }); });
  }
  window.addEventListener('message', function (e) {
    var d = e.data;
    if (d && d.type === 'sitedesk-probe:run') run(Array.isArray(d.urls) ? d.urls.filter(function (u) { return typeof u === 'string'; }) : []);
  });
  say('sitedesk-probe:ready');
  run(urlsFromAddress());
  if (window.customElements && !customElements.get('grav-site-health--page')) {
    customElements.define('grav-site-health--page', class extends HTMLElement {
      connectedCallback() { this.textContent = 'Site health: see the report.'; }
    });
  }
})();
`,
  'themes/quark2/fields/accent-swatch': `// quark2: the accent-swatch field
customElements.define('grav-quark2--accent-swatch', class extends HTMLElement {
  connectedCallback() { this.innerHTML = '<span role="img" aria-label="Accent colour" style="display:inline-block;width:1em;height:1em;background:' + (this.getAttribute('value') || '#242424') + '"></span>'; }
});
`,
};

/** The script a package ships at `<kind>s/<slug>/<folder>/<name>`, or null. */
export function packageScript(kind: 'plugins' | 'themes', slug: string, folder: 'fields' | 'pages' | 'widgets' | 'panels' | 'reports' | 'modals', name: string): string | null {
  return SCRIPTS[`${kind}/${slug}/${folder}/${name}`] ?? null;
}

/** The field types a package ships scripts for (admin-next/fields/*.js), sorted. */
export function packageFieldTypes(kind: 'plugins' | 'themes', slug: string): string[] {
  const prefix = `${kind}/${slug}/fields/`;
  return Object.keys(SCRIPTS)
    .filter((k) => k.startsWith(prefix))
    .map((k) => k.slice(prefix.length))
    .sort();
}

/** Stands in for the files' modification time (the real ETag is `"<mtime hex>-<size hex>"`). */
export const SCRIPTS_MTIME = 1_795_000_000;
