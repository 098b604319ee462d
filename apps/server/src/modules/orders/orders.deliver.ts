import { sql } from 'drizzle-orm';
import type { Order } from '@pixel-vault/shared';
import type { Database } from '../../db/client.js';
import { orders } from '../../db/schema/index.js';
import type { AuthUser } from '../../lib/access.js';
import type { PublicUrlOf } from '../../lib/urls.js';
import { recordAudit } from '../audit/audit.repo.js';
import { enqueueMail } from '../mail/mail.service.js';
import type { Mailer } from '../mail/mail.worker.js';
import { checkTransition, recordEvent } from './orders.lifecycle.js';
import { deliveredMail } from './orders.mail.js';
import { itemsFor, lockOrder, orderDto } from './orders.repo.js';
import { orderNotFound } from './orders.errors.js';

/** paid -> delivered (the admin's Mark As Delivered): repeating it changes nothing; unpaid or expired 409. */
export async function markDelivered(
  {
    db,
    mailer,
    clock,
    publicUrl,
  }: { db: Database; mailer: Mailer; clock: () => Date; publicUrl: PublicUrlOf },
  admin: AuthUser,
  orderId: string,
): Promise<Order> {
  const toDto = (tx: Parameters<typeof orderDto>[0], row: Parameters<typeof orderDto>[1]) =>
    orderDto(tx, row, publicUrl);

  let mailQueued = false;
  const delivered = await db.transaction(async (tx) => {
    const order = await lockOrder(tx, orderId);
    if (!order) throw orderNotFound();
    if (order.isDelivered || checkTransition('deliver', order) === 'done') return toDto(tx, order);
    const now = clock();
    const [updated] = await tx
      .update(orders)
      .set({ isDelivered: true, deliveredAt: now, updatedAt: now })
      .where(sql`${orders.id} = ${order.id} and ${orders.status} = 'paid' and not ${orders.isDelivered}`)
      .returning();
    if (!updated) throw new Error('Order changed under its row lock');
    await recordAudit(tx, {
      actor: admin.id,
      action: 'order.deliver',
      targetType: 'order',
      targetId: order.id,
      before: { isDelivered: false, deliveredAt: null },
      after: { isDelivered: true, deliveredAt: now },
    });
    await recordEvent(tx, {
      orderId: order.id,
      kind: 'delivered',
      actor: 'admin',
      actorUserId: admin.id,
      at: now,
    });
    // Exactly once: this transaction is the only one that moves the order to delivered.
    await enqueueMail(tx, deliveredMail(updated, await itemsFor(tx, [order.id]), now));
    mailQueued = true;
    return toDto(tx, updated);
  });
  if (mailQueued) mailer.kick();
  return delivered;
}
