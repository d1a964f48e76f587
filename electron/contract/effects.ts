/**
 * What every channel does to the world, decided by reading its handler. The fault matrix
 * (test/integration/fault-matrix.test.ts) takes its rows from the 'site-write' channels, so a new
 * write cannot be added to the contract without joining it: `satisfies Record<ChannelName, …>`
 * makes a channel missing here a compile error. It sits beside the contract, not in its index: it
 * reads the channel list, so the index handing it on would be a loop of imports.
 *
 * - 'read': asks a site or the app, changes nothing but caches of what was read.
 * - 'local': writes only the app's own database, files or keychain; no site sees a change.
 * - 'session': talks to a site's auth routes (tokens, passwords), never its content or records.
 * - 'site-write': sends a change to a CMS site's content or a store's records (now, or queued).
 */
import type { ChannelName } from './index';

export type Effect = 'read' | 'local' | 'session' | 'site-write';

export const channelEffects = {
  'app.info': 'read',
  // the build's licence notices, read from a file beside the Host
  'about.licences': 'read',

  // the site list lives in the app's database and the keychain; the probe only reads
  'sites.list': 'read',
  'sites.add': 'local',
  'sites.update': 'local',
  'sites.remove': 'local',
  'sites.reorder': 'local',
  'sites.test': 'read',

  'auth.sessions': 'read',
  'auth.setupStatus': 'read',
  // setup makes the first account of a fresh site through its public setup route, which works
  // once (a second is refused) and answers tokens: the site's sign-in, not a change to its content
  'auth.setup': 'session',
  'auth.signIn': 'session',
  // the second step of a sign-in, and dropping its challenge (kept in the Host)
  'auth.verify2fa': 'session',
  'auth.cancel2fa': 'session',
  // revokes the refresh token on the site: ends a session, changes no content
  'auth.signOut': 'session',
  // a token refresh and GET /me
  'auth.refreshMe': 'read',
  // the site mails a reset link / takes a new password: the person's account, not content
  'auth.forgotPassword': 'session',
  'auth.resetPassword': 'session',

  // reads that keep what they read in the page cache (a copy of the site, not a change)
  'pages.list': 'read',
  'pages.level': 'read',
  'pages.get': 'read',
  'pages.open': 'read',
  'pages.taxonomy': 'read',
  'pages.create': 'site-write',
  // "keep mine as a copy": creates a new page on the site
  'pages.copyAsNew': 'site-write',
  'pages.delete': 'site-write',
  'pages.move': 'site-write',
  'pages.reorder': 'site-write',
  'pages.copy': 'site-write',
  'pages.batch': 'site-write',
  'pages.reorganize': 'site-write',

  'translations.languages': 'read',
  'translations.siteLanguages': 'read',
  'translations.matrix': 'read',
  'translations.compare': 'read',
  'translations.translate': 'site-write',
  'translations.adopt': 'site-write',
  // POST …/sync writes the source language's text into the target's file on the site
  'translations.sync': 'site-write',

  'media.list': 'read',
  // stages a chunk of an upload in the Host; the upload itself is media.upload
  'media.uploadChunk': 'local',
  'media.upload': 'site-write',
  'media.delete': 'site-write',

  'blueprints.templates': 'read',
  'blueprints.page': 'read',
  'blueprints.pluginPage': 'read',
  // GET /data/resolve: a field's options
  'blueprints.options': 'read',

  'drafts.get': 'read',
  'drafts.list': 'read',
  // the draft is kept in the app's database; nothing is sent until submit or a push
  'drafts.save': 'local',
  // drops the draft and its queued change here: the site's copy stands, untouched
  'drafts.discard': 'local',
  // stores the draft and pushes that page at once
  'drafts.submit': 'site-write',
  // the merge view's result goes on top of the site's copy and is pushed at once
  'drafts.resolve': 'site-write',
  'sync.status': 'read',
  'sync.outbox': 'read',
  // removes an outbox item here; the site is not told
  'sync.discard': 'local',
  // replays the outbox: every queued create, save, move, delete… goes to the site
  'sync.push': 'site-write',

  // the mirror reads the site and writes the app's copy of it
  'mirror.start': 'local',
  'mirror.cancel': 'local',
  'mirror.status': 'read',
  'mirror.failures': 'read',
  'mirror.settings': 'read',
  'mirror.setSettings': 'local',

  'search.query': 'read',

  'workspace.get': 'read',
  'workspace.set': 'local',

  'store.sessions': 'read',
  'store.session': 'read',
  'store.budget': 'read',
  // the store's login answers a token; its logout ends it: no record changes
  'store.login': 'session',
  'store.logout': 'session',
  'store.inventory': 'read',
  'store.pets.list': 'read',
  'store.pets.get': 'read',
  'store.pets.create': 'site-write',
  'store.pets.update': 'site-write',
  'store.pets.delete': 'site-write',
  'store.pets.uploadImage': 'site-write',
  'store.orders.get': 'read',
  'store.orders.place': 'site-write',
  'store.orders.delete': 'site-write',
  'store.users.get': 'read',
  'store.users.create': 'site-write',
  'store.users.createList': 'site-write',
  'store.users.update': 'site-write',
  'store.users.delete': 'site-write',

  // a site's configuration: the form and its scopes are read (and kept as a copy); a save writes
  // the site's configuration files
  'settings.scopes': 'read',
  'settings.open': 'read',
  'settings.save': 'site-write',

  // a site's accounts; a row action runs a plugin's handler on the site (it may change the account)
  'users.list': 'read',
  'users.extensions': 'read',
  'users.get': 'read',
  'users.create': 'site-write',
  'users.update': 'site-write',
  'users.delete': 'site-write',
  'users.rowAction': 'site-write',
  'users.apiKeys': 'read',
  // minting and revoking a key change the account's records on the site (not a sign-in of ours)
  'users.createApiKey': 'site-write',
  'users.deleteApiKey': 'site-write',
  'users.form': 'read',
  'users.offline': 'read',
  // a choice kept on this computer (and the copy it makes or removes), not a write to the site
  'users.setOffline': 'local',
  'users.people': 'read',
  'users.uploadAvatar': 'site-write',
  'users.removeAvatar': 'site-write',
  'users.twofaSetup': 'site-write',
  'users.twofaEnable': 'site-write',
  'users.twofaDisable': 'site-write',

  // the site's media library; an upload's chunks are staged in the Host until library.upload sends them
  'library.list': 'read',
  'packages.installed': 'read',
  'packages.document': 'read',
  'packages.coreChangelog': 'read',
  'packages.updates': 'read',
  'packages.updatesAcross': 'read',
  'packages.repository': 'read',
  'packages.repositoryPackage': 'read',
  'packages.uploadChunk': 'local',
  // starts the work and answers at once; each job then writes to its site (install, update, remove …)
  'packages.run': 'site-write',
  'packages.jobs': 'read',
  'packages.clearJobs': 'local',
  'addons.list': 'read',
  // a plugin's action does what the plugin does on the site: a write, sent now or refused
  'addons.runAction': 'site-write',
  'addons.pageAction': 'site-write',
  'addons.page': 'read',
  'addons.pageData': 'read',
  'addons.savePageData': 'site-write',
  'addons.translations': 'read',
  'system.info': 'read',
  // empties the site's caches: changes no content, but it is a write the site does
  'system.clearCache': 'site-write',
  'system.reports': 'read',
  'scripts.allowed': 'read',
  // the person's choice, kept on this computer
  'scripts.setAllowed': 'local',
  'scripts.load': 'read',
  // a jailed plugin script's call: reads anywhere allowed, writes only to the plugin's own routes
  'scripts.request': 'site-write',
  'scheduler.jobs': 'read',
  'scheduler.status': 'read',
  'scheduler.history': 'read',
  // runs the site's due (or all) jobs: a write the site does
  'scheduler.run': 'site-write',
  'dashboard.view': 'read',
  // a dismissal the site records for this account
  'dashboard.hide': 'site-write',
  // reads each part through its own area; asks the site's /ping
  'overview.site': 'read',
  'demo.status': 'read',
  // replaces the site's demo baseline with its content now
  'demo.baseline': 'site-write',
  // restores the site's content from the baseline: edits since are lost
  'demo.reset': 'site-write',
  // a site's webhooks: the list, a hook and the deliveries are read (the list kept as a copy); the
  // health reads each hook's deliveries; create, edit and delete change the site's hooks; a test
  // has the site send a delivery now and record it (the real service counts its failure too)
  'webhooks.list': 'read',
  'webhooks.get': 'read',
  'webhooks.create': 'site-write',
  'webhooks.update': 'site-write',
  'webhooks.delete': 'site-write',
  'webhooks.deliveries': 'read',
  'webhooks.test': 'site-write',
  'webhooks.health': 'read',
  'audit.status': 'read',
  'audit.events': 'read',
  'audit.facets': 'read',
  // the system's save dialog
  'audit.chooseFile': 'local',
  // reads the site's export and writes it into a file the person chose: nothing changes on the site
  'audit.export': 'read',
  'audit.cancelExport': 'local',
  // the audit trail kept offline: a keep reads the site's trail into the app's database; imports
  // and exports read and write files the person chose; nothing is sent to a site
  'auditCopy.copies': 'read',
  'auditCopy.keep': 'local',
  'auditCopy.chooseOpenFile': 'local',
  'auditCopy.import': 'local',
  'auditCopy.export': 'local',
  'auditCopy.cancel': 'local',
  'auditCopy.jobs': 'read',
  'auditCopy.search': 'read',
  'auditCopy.facets': 'read',
  'auditCopy.setRetention': 'local',
  'auditCopy.forget': 'local',
  // a site's mailing audience (docs/mailer-audience.md): the plugin found by asking; lists, tags,
  // segments, the vocabulary and the table's counts kept as copies; the subscribers only where the
  // person chose an offline copy (a local choice; filling it reads the site); a preview of an
  // import or a segment and a count write nothing on the site; exports read the site into a file
  // the person chose; every other write changes the site's audience, sent now or refused
  'mailer.site': 'read',
  'mailer.offline': 'read',
  'mailer.setOffline': 'local',
  'mailer.lists': 'read',
  'mailer.createList': 'site-write',
  'mailer.updateList': 'site-write',
  'mailer.tags': 'read',
  'mailer.createTag': 'site-write',
  'mailer.deleteTag': 'site-write',
  'mailer.suppressions': 'read',
  'mailer.suppress': 'site-write',
  'mailer.unsuppress': 'site-write',
  'mailer.erase': 'site-write',
  'mailer.subscribers': 'read',
  'mailer.count': 'read',
  'mailer.subscriber': 'read',
  'mailer.add': 'site-write',
  'mailer.update': 'site-write',
  'mailer.unsubscribe': 'site-write',
  'mailer.resubscribe': 'site-write',
  'mailer.confirm': 'site-write',
  'mailer.delete': 'site-write',
  'mailer.chooseExportFile': 'local',
  'mailer.exportPerson': 'read',
  'mailer.exportTable': 'read',
  'mailer.cancelExport': 'local',
  'mailer.bulk': 'site-write',
  'mailer.cancelBulk': 'local',
  'mailer.chooseImportFile': 'local',
  // POST …/imports/preview: the site reads the file and writes nothing
  'mailer.importPreview': 'read',
  'mailer.importRun': 'site-write',
  'mailer.imports': 'read',
  'mailer.import': 'read',
  'mailer.vocabulary': 'read',
  // POST …/segments/preview: counts a definition, saves nothing
  'mailer.previewSegment': 'read',
  'mailer.segments': 'read',
  'mailer.segment': 'read',
  'mailer.createSegment': 'site-write',
  'mailer.updateSegment': 'site-write',
  'mailer.deleteSegment': 'site-write',
  // POST …/segments/{id}/count: the site stores the count it takes
  'mailer.recountSegment': 'site-write',
  'mailer.campaigns': 'read',
  'mailer.campaign': 'read',
  // GET …/campaigns/audience: counts, saves nothing
  'mailer.campaignAudience': 'read',
  'mailer.createCampaign': 'site-write',
  // a move puts mail into inboxes (start, resume) or stops it: sent now or refused, never queued
  'mailer.moveCampaign': 'site-write',
  'mailer.deleteCampaign': 'site-write',
  'mailer.updateCampaign': 'site-write',
  // POST …/preview renders unsaved text, saves nothing
  'mailer.previewCampaign': 'read',
  'mailer.testCampaign': 'site-write',
  'mailer.campaignSends': 'read',
  'mailer.campaignLinks': 'read',
  'mailer.campaignTimeline': 'read',
  'mailer.campaignCatchUp': 'read',
  'mailer.overview': 'read',
  'mailer.templates': 'read',
  'mailer.createTemplate': 'site-write',
  'mailer.updateTemplate': 'site-write',
  'mailer.deleteTemplate': 'site-write',
  // POST …/templates/{id}/preview renders unsaved text, saves nothing
  'mailer.previewTemplate': 'read',
  // drafts of campaigns and templates kept here: reading or dropping one changes no site; a submit
  // or a resolution edits the record on the site (never starts or sends it), or keeps it queued
  'mailDrafts.forRecord': 'read',
  'mailDrafts.list': 'read',
  'mailDrafts.get': 'read',
  'mailDrafts.discard': 'local',
  'mailDrafts.submit': 'site-write',
  'mailDrafts.resolve': 'site-write',
  'mailer.sendCatchUp': 'site-write',
  'mailer.retryFailed': 'site-write',
  // deliverability, providers and reports (contract/mailer-reports.ts): the recheck has the site
  // look every domain up now and keep that; a secret is minted and kept by the site; a setup makes
  // the provider's webhook; a report's CSV is read from the site into a file the person chose
  'mailer.deliverability': 'read',
  'mailer.recheckDeliverability': 'site-write',
  'mailer.providers': 'read',
  'mailer.providerSecret': 'site-write',
  'mailer.providerSetup': 'site-write',
  'mailer.report': 'read',
  'mailer.chooseReportFile': 'local',
  'mailer.exportReport': 'read',
  'mailer.flows': 'read',
  'mailer.flowRecipes': 'read',
  'mailer.flow': 'read',
  'mailer.createFlow': 'site-write',
  'mailer.flowFromRecipe': 'site-write',
  'mailer.updateFlow': 'site-write',
  // activate and resume let a flow's sends mail people: sent now or refused, never queued
  'mailer.moveFlow': 'site-write',
  'mailer.deleteFlow': 'site-write',
  'mailer.enrol': 'site-write',
  'mailer.exitEnrolment': 'site-write',
  'library.uploadChunk': 'local',
  'library.upload': 'site-write',
  'library.delete': 'site-write',
  'library.move': 'site-write',
  'library.createFolder': 'site-write',
  'library.renameFolder': 'site-write',
  'library.deleteFolder': 'site-write',

  // the damaged-database screen: a folder dialog, the unsynced work saved as files there, the file
  // kept aside and a fresh one made; all in the app's own folders
  'database.chooseFolder': 'local',
  'database.saveUnsynced': 'local',
  'database.startFresh': 'local',
} as const satisfies Record<ChannelName, Effect>;

/** The channels that send a change to a site (the fault matrix's rows). */
export const siteWrites = (Object.keys(channelEffects) as ChannelName[]).filter((c) => channelEffects[c] === 'site-write');
