/** The `mailer.*` channels (contract/mailer*.ts) on the mailer service. */
import type { mailerChannels } from '../contract';
import type { HandlersOf, Lazy } from '../base/handlers';
import type { MailerService } from './service';

export function mailerHandlers(mailer: Lazy<MailerService>): HandlersOf<typeof mailerChannels> {
  return {
    'mailer.site': ({ siteId }) => mailer().site(siteId),
    'mailer.offline': ({ siteId }) => mailer().offline(siteId),
    'mailer.setOffline': ({ siteId, keep }) => mailer().setOffline(siteId, keep),

    'mailer.lists': ({ siteId }) => mailer().lists(siteId),
    'mailer.createList': (input) => mailer().createList(input),
    'mailer.updateList': (input) => mailer().updateList(input),
    'mailer.tags': ({ siteId }) => mailer().tags(siteId),
    'mailer.createTag': (input) => mailer().createTag(input),
    'mailer.deleteTag': ({ siteId, id }) => mailer().deleteTag(siteId, id),

    'mailer.suppressions': ({ siteId, reason, page, perPage }) => mailer().suppressions(siteId, reason, page, perPage),
    'mailer.suppress': (input) => mailer().suppress(input),
    'mailer.unsuppress': ({ siteId, hash }) => mailer().unsuppress(siteId, hash),
    'mailer.erase': ({ siteId, email }) => mailer().erase(siteId, email),

    'mailer.subscribers': ({ siteId, filter, page, perPage }) => mailer().subscribers(siteId, filter, page, perPage),
    'mailer.count': ({ siteId, filter }) => mailer().count(siteId, filter),
    'mailer.subscriber': ({ siteId, id }) => mailer().subscriber(siteId, id),
    'mailer.add': (input) => mailer().add(input),
    'mailer.update': (input) => mailer().update(input),
    'mailer.unsubscribe': ({ siteId, id }) => mailer().unsubscribe(siteId, id),
    'mailer.resubscribe': ({ siteId, id, note, listId }) => mailer().resubscribe(siteId, id, note, listId),
    'mailer.confirm': ({ siteId, id }) => mailer().confirm(siteId, id),
    'mailer.delete': ({ siteId, id }) => mailer().remove(siteId, id),
    'mailer.chooseExportFile': ({ what, id }) => mailer().chooseExportFile(what, id),
    'mailer.exportPerson': (input) => mailer().exportPerson(input),
    'mailer.exportTable': (input) => mailer().exportTable(input),
    'mailer.cancelExport': ({ exportId }) => mailer().cancelExport(exportId),
    'mailer.bulk': (input) => mailer().bulk(input),
    'mailer.cancelBulk': ({ bulkId }) => mailer().cancelBulk(bulkId),

    'mailer.chooseImportFile': () => mailer().chooseImportFile(),
    'mailer.importPreview': (input) => mailer().importPreview(input),
    'mailer.importRun': (input) => mailer().importRun(input),
    'mailer.imports': ({ siteId, page, perPage }) => mailer().imports(siteId, page, perPage),
    'mailer.import': ({ siteId, id, follow }) => mailer().import(siteId, id, follow),

    'mailer.vocabulary': ({ siteId }) => mailer().vocabulary(siteId),
    'mailer.previewSegment': ({ siteId, definition, listId }) => mailer().previewSegment(siteId, definition, listId),
    'mailer.segments': ({ siteId }) => mailer().segments(siteId),
    'mailer.segment': ({ siteId, id }) => mailer().segment(siteId, id),
    'mailer.createSegment': (input) => mailer().createSegment(input),
    'mailer.updateSegment': (input) => mailer().updateSegment(input),
    'mailer.deleteSegment': ({ siteId, id }) => mailer().deleteSegment(siteId, id),
    'mailer.recountSegment': ({ siteId, id }) => mailer().recountSegment(siteId, id),

    'mailer.campaigns': ({ siteId, status, page, perPage }) => mailer().campaigns(siteId, status, page, perPage),
    'mailer.campaign': ({ siteId, id }) => mailer().campaign(siteId, id),
    'mailer.campaignAudience': ({ siteId, listIds, segmentId }) => mailer().campaignAudience(siteId, listIds, segmentId),
    'mailer.createCampaign': (input) => mailer().createCampaign(input),
    'mailer.moveCampaign': (input) => mailer().moveCampaign(input),
    'mailer.deleteCampaign': ({ siteId, id }) => mailer().deleteCampaign(siteId, id),
    'mailer.updateCampaign': (input) => mailer().updateCampaign(input),
    'mailer.previewCampaign': (input) => mailer().previewCampaign(input),
    'mailer.testCampaign': (input) => mailer().testCampaign(input),
    'mailer.campaignSends': ({ siteId, id, status, page, perPage }) => mailer().campaignSends(siteId, id, status, page, perPage),
    'mailer.campaignLinks': ({ siteId, id }) => mailer().campaignLinks(siteId, id),
    'mailer.campaignTimeline': ({ siteId, id }) => mailer().campaignTimeline(siteId, id),
    'mailer.campaignCatchUp': ({ siteId, id }) => mailer().campaignCatchUp(siteId, id),
    'mailer.overview': ({ siteId, days }) => mailer().overview(siteId, days),
    'mailer.templates': ({ siteId }) => mailer().templates(siteId),
    'mailer.createTemplate': (input) => mailer().createTemplate(input),
    'mailer.updateTemplate': (input) => mailer().updateTemplate(input),
    'mailer.deleteTemplate': ({ siteId, id }) => mailer().deleteTemplate(siteId, id),
    'mailer.previewTemplate': (input) => mailer().previewTemplate(input),
    'mailer.sendCatchUp': ({ siteId, id }) => mailer().sendCatchUp(siteId, id),
    'mailer.retryFailed': ({ siteId, id, sendId }) => mailer().retryFailed(siteId, id, sendId),

    'mailDrafts.forRecord': ({ siteId, kind, id }) => ({ draft: mailer().drafts.forRecord(siteId, kind, id) }),
    'mailDrafts.submit': (input) => mailer().drafts.submit(input),
    'mailDrafts.list': ({ siteId }) => mailer().drafts.list(siteId),
    'mailDrafts.get': ({ draftId }) => mailer().drafts.get(draftId),
    'mailDrafts.discard': ({ draftId }) => mailer().drafts.discard(draftId),
    'mailDrafts.resolve': (input) => mailer().drafts.resolve(input),
  };
}
