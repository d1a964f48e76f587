/**
 * The inventory and orders as the real Swagger Petstore v3 serves them (the `real` flavour),
 * following swagger-api/swagger-petstore: src/main/java/io/swagger/petstore/controller/
 * OrderController.java and data/OrderData.java:
 * - GET /store/inventory counts ORDER quantities per ORDER status (placed, approved, delivered,
 *   or whatever status the orders were placed with), not pets per pet status.
 * - POST /store/order stores the order as sent: nothing is checked (the pet need not exist, any
 *   quantity and status go), nothing is generated. Order.id is a primitive long, so an order
 *   sent without one is order 0 and replaces the order 0 placed before it. The answer is the
 *   order as read. No body: 400 "No Order provided. Try again?" (the body is optional in the
 *   OpenAPI file, so inflector lets it through to Petstore).
 * - GET /store/order/{orderId}: any long is looked up (no 1 to 10 rule; the OpenAPI text only
 *   suggests ids to try), 404 "Order not found" for none.
 * - DELETE /store/order/{orderId}: 200 with an empty body, whether or not there was such an order.
 * Orders and pets do not follow each other: placing or deleting an order leaves the pet as it is.
 */
import { HttpProblem, type Router } from '../../http';
import { entity, noEntity, untypedText } from './answers';
import type { PetstoreData } from './data';
import { orderJson, readEntity } from './entities';
import { bodyText, isJson, longParam } from './params';

export function registerRealStoreRoutes(api: Router, data: PetstoreData): void {
  api.on('GET', '/store/inventory', (_req, res) => entity(res, data.countByStatus()));

  api.on('POST', '/store/order', async (req, res) => {
    const text = await bodyText(req);
    if (text !== null && !isJson(req)) throw new HttpProblem(415, 'Unsupported Media Type', 'HTTP 415 Unsupported Media Type');
    const order = text === null ? null : readEntity(text, 'order');
    if (!order) return untypedText(req, res, 400, 'No Order provided. Try again?');
    data.addOrder(order);
    entity(res, orderJson(order));
  });

  api.on('GET', '/store/order/{orderId}', (req, res, p) => {
    const order = data.order(longParam(p.orderId!));
    if (!order) return untypedText(req, res, 404, 'Order not found');
    entity(res, orderJson(order));
  });

  api.on('DELETE', '/store/order/{orderId}', (_req, res, p) => {
    data.deleteOrder(longParam(p.orderId!));
    noEntity(res);
  });
}
