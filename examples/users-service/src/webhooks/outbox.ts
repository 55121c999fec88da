import type { Queryable } from '../database/database.js'
import { newId } from '../random-ids.js'
import type { User } from '../users/users-table.js'

export type UserEvent =
  | { type: 'user.updated'; user: User; changes: Array<'name' | 'role' | 'status'>; actorId: string }
  | { type: 'user.deleted'; user: User; actorId: string }

/**
 * Writes the event into the outbox, one delivery per endpoint of the user's organization, in the
 * caller's transaction: if the change rolls back, so does its event. The worker sends it after the
 * commit (docs/contract.md §6: "once the change can be seen through the API").
 *
 * @returns how many deliveries were written (0 when the organization has no endpoint)
 */
export async function recordEvent(tx: Queryable, event: UserEvent): Promise<number> {
  const { type, ...data } = event
  const payload = JSON.stringify({ type, timestamp: new Date().toISOString(), data })
  const rows = await tx.query(
    `INSERT INTO webhook_deliveries (message_id, endpoint_id, user_id, payload)
     SELECT $1, id, $2, $3 FROM webhook_endpoints WHERE organization_id = $4
     RETURNING id`,
    [newId('msg'), event.user.id, payload, event.user.organizationId],
  )
  return rows.length
}
