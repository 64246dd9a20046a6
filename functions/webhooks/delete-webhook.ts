/** `DELETE /api/v1/webhooks/{id}`: deletes a subscription; nothing more is delivered to it. */
import { defineOperation } from '#api/operation';
import { uuidPath } from '#api/params';
import { deleteWebhook as remove } from '#db/webhooks';
import { deletedOf } from '#api/responses/common';

export default defineOperation({
  operationId: 'deleteWebhook',
  method: 'DELETE',
  path: '/api/v1/webhooks/{id}',
  access: 'actions',
  summary: 'Deletes a subscription.',
  response: () => deletedOf('id'),
  uses: ['table:delete'],
  schemas: () => ({ path: uuidPath('id') }),
  handler: async ({ path }, { principal }) => {
    await remove(principal.orgId, path.id);
    return { body: { deleted: true, id: path.id } };
  },
});
